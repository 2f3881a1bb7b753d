import type fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { FS_CASE, isInside } from '../../shared/node/path-containment';
import { allowedRoots, describeFsError, toAbsolute } from './confined-fs';
import { ToolError } from './tool';
import type { ToolContext } from './types';

/** Where a find/search runs: a real folder or file inside a root, and the root whose .gitignore applies. */
export interface SearchScope {
  real: string;
  isDirectory: boolean;
  ignoreRoot: string;
}

export async function resolveSearchScope(p: string | undefined, ctx: ToolContext): Promise<SearchScope> {
  const shown = p ?? '.';
  const roots = await allowedRoots(ctx);
  let real: string;
  let stat: fs.Stats;
  try {
    real = await fsp.realpath(toAbsolute(shown, roots[0] ?? ctx.projectRoot));
    stat = await fsp.stat(real);
  } catch (err) {
    throw describeFsError(err, shown);
  }
  // The most specific root wins (an additional directory may sit inside the project).
  const containing = roots.filter((root) => isInside(real, root, FS_CASE)).sort((a, b) => b.length - a.length)[0];
  if (containing === undefined) {
    throw new ToolError(
      `path_outside_roots: ${shown} resolves to ${real}, outside the project and its additional directories; refusing`,
    );
  }
  if (!stat.isDirectory() && !stat.isFile()) throw new ToolError(`${shown} is neither a folder nor a regular file`);
  return { real, isDirectory: stat.isDirectory(), ignoreRoot: stat.isDirectory() ? containing : path.dirname(real) };
}
