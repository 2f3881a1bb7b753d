import { z } from 'zod/mini';
import { MAX_STDIN_BYTES } from './stdin-text';

/**
 * The messages between the `gatehouse` client and its per-user decision helper (see decision-helper-socket.ts for
 * where the socket is and which commands the helper serves): newline-delimited JSON, validated on both sides (zod's
 * mini build: the client loads it on every served call).
 *
 * The conversation, one connection per call:
 *   client -> helper  request {secret, argv, cwd, env, stdin?, pid, umask, node}
 *                     (secret: the helper's per-start secret, see decision-helper-secret.ts; without it, refused)
 *   helper -> client  start     (the helper is free and takes this request; until then it may be serving another)
 *   client -> helper  go        (only if the client still waits: a client that gave up closed the socket instead,
 *                                so a request never runs twice)
 *   helper -> client  reply {exitCode, output}   or   refused {reason} (the client then runs the command itself)
 */

/** Requests carry the environment and stdin; replies carry what a check prints. */
export const MAX_MESSAGE_BYTES = MAX_STDIN_BYTES + 4 * 1024 * 1024;

export const HelperRequestSchema = z.object({
  type: z.literal('request'),
  secret: z.string(),
  argv: z.array(z.string()),
  cwd: z.string(),
  env: z.record(z.string(), z.string()),
  stdin: z.optional(z.string()),
  pid: z.number(),
  umask: z.number(),
  node: z.string(),
});
export type HelperRequest = z.infer<typeof HelperRequestSchema>;

export const ClientGoSchema = z.object({ type: z.literal('go') });

const OutputSchema = z.array(z.object({ stream: z.enum(['out', 'err']), text: z.string() }));
export type HelperOutput = z.infer<typeof OutputSchema>;

export const HelperMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('start'), pid: z.int().check(z.positive()) }),
  z.object({ type: z.literal('reply'), exitCode: z.int(), output: OutputSchema }),
  z.object({ type: z.literal('refused'), reason: z.string() }),
]);
export type HelperMessage = z.infer<typeof HelperMessageSchema>;

/**
 * Calls `onLine` with each newline-terminated line of `socket` (as text), up to `maxBytes` per line; more than that
 * calls `onTooLong` and stops reading.
 */
export function readLines(
  socket: NodeJS.ReadableStream,
  maxBytes: number,
  onLine: (line: string) => void,
  onTooLong: () => void,
): void {
  let chunks: Buffer[] = [];
  let size = 0;
  const onData = (data: Buffer): void => {
    let start = 0;
    for (let nl = data.indexOf(10); nl !== -1; nl = data.indexOf(10, start)) {
      chunks.push(data.subarray(start, nl));
      const line = Buffer.concat(chunks).toString('utf8');
      chunks = [];
      size = 0;
      start = nl + 1;
      onLine(line);
    }
    const rest = data.subarray(start);
    size += rest.length;
    if (size > maxBytes) {
      socket.removeListener('data', onData);
      chunks = [];
      onTooLong();
      return;
    }
    if (rest.length) chunks.push(rest);
  };
  socket.on('data', onData);
}
