import fs from 'node:fs';
import path from 'node:path';
import { GatehouseError } from '../../../../shared/errors';
import { FS_CASE, isInside } from '../../../../shared/node/path-containment';
import { MAX_FOLDER_ENTRIES, type FolderEntry } from '../../../../shared/rule-builder-contract';

export interface FolderListing {
  entries: FolderEntry[];
  truncated: boolean;
}

/**
 * The segments of a folder path relative to a root, as the file tree sends it (`src/lib`, `''` for the root). Refused:
 * an absolute path, `..`, a NUL byte: the tree only ever goes down from a root.
 */
function folderSegments(dir: string): string[] {
  if (dir.includes('\0')) throw new GatehouseError('BAD_REQUEST', 'a folder path must not contain NUL');
  if (path.isAbsolute(dir) || /^[\\/]/.test(dir) || /^[A-Za-z]:/.test(dir))
    throw new GatehouseError('BAD_REQUEST', `"${dir}" must be a path relative to its root, not an absolute path`);
  const segments = dir.split(/[\\/]+/).filter((s) => s !== '' && s !== '.');
  if (segments.includes('..'))
    throw new GatehouseError('BAD_REQUEST', `"${dir}" leaves its root: ".." is not allowed in the file tree`);
  return segments;
}

function kindOf(entry: fs.Dirent): FolderEntry['kind'] {
  if (entry.isSymbolicLink()) return 'link';
  if (entry.isDirectory()) return 'dir';
  if (entry.isFile()) return 'file';
  return 'other';
}

/**
 * Lists one folder below `root` (a real path: the project or an additional directory). Every segment on the way must
 * be a real folder, never a symbolic link (a link could lead out of the root, and a rule written for the path as
 * shown would not be where its files really are); the folder's real path is checked again after the listing, so a
 * folder swapped for a link meanwhile is refused too. At most MAX_FOLDER_ENTRIES entries, folders first.
 */
export async function listFolder(root: string, dir: string): Promise<FolderListing> {
  const segments = folderSegments(dir);
  let current = root;
  for (const segment of ['', ...segments]) {
    current = segment === '' ? current : path.join(current, segment);
    let st: fs.Stats;
    try {
      st = await fs.promises.lstat(current);
    } catch {
      throw new GatehouseError('NOT_FOUND', `folder not found: ${current}`);
    }
    if (st.isSymbolicLink())
      throw new GatehouseError('FORBIDDEN', `${current} is a symbolic link: the file tree does not follow links`);
    if (!st.isDirectory()) throw new GatehouseError('BAD_REQUEST', `${current} is not a folder`);
  }
  const entries: FolderEntry[] = [];
  let truncated = false;
  const handle = await fs.promises.opendir(current, { bufferSize: 128 });
  try {
    for await (const entry of handle) {
      if (entries.length >= MAX_FOLDER_ENTRIES) {
        truncated = true;
        break;
      }
      entries.push({ name: entry.name, kind: kindOf(entry) });
    }
  } finally {
    // A for-await that ran to the end closed the handle already; one left early did not.
    await handle.close().catch(() => undefined);
  }
  const real = await fs.promises.realpath(current);
  if (real !== current || !isInside(real, root, FS_CASE))
    throw new GatehouseError('FORBIDDEN', `${current} leads to ${real}: the file tree does not follow links`);
  const rank = (e: FolderEntry): number => (e.kind === 'dir' ? 0 : 1);
  entries.sort((a, b) => rank(a) - rank(b) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { entries, truncated };
}
