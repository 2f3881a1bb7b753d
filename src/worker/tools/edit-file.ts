import { EditFileInput } from '../../shared/tools';
import { closeQuietly, displayPath, overwrite, readWhole } from './confined-fs';
import { openConfinedForWrite } from './confined-write';
import { readCurrentForPreview, replacementPreview } from './diff-preview';
import { detectEol, looksBinary, MAX_WHOLE_FILE_BYTES, toEol } from './text-file';
import { ToolError, defineTool, ok } from './tool';

export interface EditRequest {
  path: string;
  old_string: string;
  new_string: string;
  replace_all?: boolean | undefined;
}

function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) count++;
  return count;
}

/**
 * The new content of a file after an edit, or a ToolError saying why the edit cannot apply.
 * Line endings: in a CRLF file, LF in old_string/new_string is read as CRLF (the model writes LF).
 * A file that ended with a line break still does after the edit.
 */
export function applyEdit(original: string, req: EditRequest): { content: string; replacements: number } {
  if (req.old_string === req.new_string)
    throw new ToolError('old_string and new_string are the same; nothing to change');
  const eol = detectEol(original);
  const candidates: Array<{ oldS: string; newS: string }> = [];
  if (eol === '\r\n') candidates.push({ oldS: toEol(req.old_string, eol), newS: toEol(req.new_string, eol) });
  candidates.push({ oldS: req.old_string, newS: req.new_string });
  const chosen = candidates.map((c) => ({ ...c, count: countOccurrences(original, c.oldS) })).find((c) => c.count > 0);
  if (chosen === undefined) throw new ToolError(`old_string not found in ${req.path}`);
  if (chosen.count > 1 && req.replace_all !== true) {
    throw new ToolError(`old_string matches ${chosen.count} times in ${req.path}; add context or set replace_all`);
  }
  let content: string;
  if (req.replace_all === true) {
    content = original.split(chosen.oldS).join(chosen.newS);
  } else {
    const at = original.indexOf(chosen.oldS);
    content = original.slice(0, at) + chosen.newS + original.slice(at + chosen.oldS.length);
  }
  if (original.endsWith('\n') && content !== '' && !content.endsWith('\n')) content += eol;
  return { content, replacements: chosen.count };
}

export const editFileTool = defineTool({
  name: 'edit_file',
  input: EditFileInput,
  description:
    'Replace exact text in an existing file. old_string must appear exactly once (include surrounding lines to make ' +
    'it unique) unless replace_all is true. Whitespace and indentation must match the file exactly.',
  timeoutMs: () => 30_000,
  async run(input, ctx) {
    const file = await openConfinedForWrite(input.path, ctx, { mustExist: true });
    let written = false;
    try {
      if (file.size > MAX_WHOLE_FILE_BYTES)
        throw new ToolError(
          `${input.path} is too large to edit (over ${MAX_WHOLE_FILE_BYTES.toLocaleString('en-US')} bytes)`,
        );
      const buf = await readWhole(file.handle, file.size);
      if (looksBinary(buf)) throw new ToolError(`${input.path} is a binary file; not edited`);
      const { content, replacements } = applyEdit(buf.toString('utf8'), input);
      await overwrite(file.handle, content);
      written = true;
      const shown = displayPath(file.realPath, ctx.projectRoot);
      return ok(`Edited ${shown}: replaced ${replacements} occurrence${replacements === 1 ? '' : 's'}`);
    } finally {
      // After a write, a failed close is a failed edit; before it, nothing was changed.
      if (written) await file.handle.close();
      else await closeQuietly(file.handle);
    }
  },
  async preview(input, ctx) {
    const current = await readCurrentForPreview(input.path, ctx);
    if (current.unpreviewable) return replacementPreview(current, null);
    if (current.text === null) throw new ToolError(`file not found: ${input.path}`);
    const { content } = applyEdit(current.text, input);
    return replacementPreview(current, content);
  },
});
