import { ToolError } from './tool';
import { closeQuietly, openConfinedForRead, readWhole } from './confined-fs';
import type { ToolContext } from './types';

/** Bytes looked at for the binary check (like git and ripgrep: a NUL byte means binary). */
const BINARY_SNIFF_BYTES = 8 * 1024;
/** Files larger than this are read only when a line range is given. */
export const MAX_WHOLE_FILE_BYTES = 2 * 1024 * 1024;
/** Never read more than this, range or not. */
export const MAX_RANGED_FILE_BYTES = 64 * 1024 * 1024;

export function looksBinary(buf: Buffer): boolean {
  return buf.subarray(0, BINARY_SNIFF_BYTES).includes(0);
}

export interface TextFile {
  text: string;
  realPath: string;
}

/** Reads a text file through the confined open; binary files and oversize files are errors. */
export async function readConfinedText(p: string, ctx: ToolContext, opts: { maxBytes: number }): Promise<TextFile> {
  const file = await openConfinedForRead(p, ctx);
  try {
    if (file.size > opts.maxBytes) {
      throw new ToolError(
        `${p} is ${file.size.toLocaleString('en-US')} bytes, over the ${opts.maxBytes.toLocaleString('en-US')}-byte limit; read a line range with offset and limit`,
      );
    }
    const buf = await readWhole(file.handle, file.size);
    if (looksBinary(buf)) throw new ToolError(`${p} is a binary file; not shown`);
    return { text: buf.toString('utf8'), realPath: file.realPath };
  } finally {
    await closeQuietly(file.handle);
  }
}

export type Eol = '\n' | '\r\n';

/** A file with at least one CRLF line ending is treated as a CRLF file. */
export function detectEol(text: string): Eol {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

export function toEol(text: string, eol: Eol): string {
  return eol === '\r\n' ? text.replace(/\r?\n/g, '\r\n') : text;
}
