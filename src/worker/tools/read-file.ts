import { ReadFileInput } from '../../shared/tools';
import { ToolError, defineTool, ok } from './tool';
import { capLine } from './truncate';
import { MAX_RANGED_FILE_BYTES, MAX_WHOLE_FILE_BYTES, readConfinedText } from './text-file';

const MAX_LINE_CHARS = 2_000;

/** `cat -n` style: right-aligned line number, a tab, the line. */
function numberLines(lines: readonly string[], firstLineNumber: number): string {
  return lines
    .map((line, i) => `${String(firstLineNumber + i).padStart(6, ' ')}\t${capLine(line, MAX_LINE_CHARS)}`)
    .join('\n');
}

export const readFileTool = defineTool({
  name: 'read_file',
  input: ReadFileInput,
  description:
    'Read a text file of the project. Output lines are numbered like `cat -n` (number, tab, text). ' +
    'Use offset (1-based first line) and limit (number of lines) to read part of a large file. Binary files are refused.',
  timeoutMs: () => 30_000,
  async run(input, ctx) {
    const ranged = input.offset !== undefined || input.limit !== undefined;
    const { text } = await readConfinedText(input.path, ctx, {
      maxBytes: ranged ? MAX_RANGED_FILE_BYTES : MAX_WHOLE_FILE_BYTES,
    });
    if (text === '') return ok(`(${input.path} is empty)`);
    const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
    if (text.endsWith('\n')) lines.pop();
    const total = lines.length;
    const start = input.offset ?? 1;
    if (start > total) throw new ToolError(`offset ${start} is past the end of ${input.path} (${total} lines)`);
    const end = input.limit === undefined ? total : Math.min(total, start - 1 + input.limit);
    const body = numberLines(lines.slice(start - 1, end), start);
    const partial = start > 1 || end < total;
    return ok(partial ? `${body}\n[lines ${start}-${end} of ${total}]` : body);
  },
});
