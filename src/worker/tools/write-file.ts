import { WriteFileInput } from '../../shared/tools';
import { closeQuietly, displayPath, overwrite } from './confined-fs';
import { openConfinedForWrite } from './confined-write';
import { readCurrentForPreview, replacementPreview } from './diff-preview';
import { defineTool, ok } from './tool';

export const writeFileTool = defineTool({
  name: 'write_file',
  input: WriteFileInput,
  description:
    'Create a file or replace its whole content. Missing parent folders are created. ' +
    'Prefer edit_file to change part of an existing file.',
  timeoutMs: () => 30_000,
  async run(input, ctx) {
    const file = await openConfinedForWrite(input.path, ctx, { mustExist: false });
    let bytes: number;
    try {
      bytes = await overwrite(file.handle, input.content);
    } catch (err) {
      await closeQuietly(file.handle);
      throw err;
    }
    // A failed close of a written file is a failed write (the data may not have reached the disk).
    await file.handle.close();
    const verb = file.created ? 'Created' : 'Overwrote';
    return ok(`${verb} ${displayPath(file.realPath, ctx.projectRoot)} (${bytes.toLocaleString('en-US')} bytes)`);
  },
  async preview(input, ctx) {
    return replacementPreview(await readCurrentForPreview(input.path, ctx), input.content);
  },
});
