/** Stdin is read whole, up to a limit (a PreToolUse input carries a file's content at most). */
export const MAX_STDIN_BYTES = 32 * 1024 * 1024;

/** All of `stream` as UTF-8 text; rejects when it is larger than `maxBytes`. */
export function readStdinText(
  stream: NodeJS.ReadableStream = process.stdin,
  maxBytes: number = MAX_STDIN_BYTES,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (c: Buffer) => {
      size += c.length;
      if (size > maxBytes) reject(new Error(`the input is larger than ${maxBytes} bytes`));
      else chunks.push(c);
    });
    stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    stream.on('error', reject);
  });
}
