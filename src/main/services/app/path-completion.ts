import fs from 'node:fs';
import path from 'node:path';

/** At most this many folders are offered. */
const MAX_FOLDERS = 50;

/**
 * The folders whose path starts with `prefix`, for the browser shell's "Folder path" box: `~` is the home folder,
 * hidden folders only when the typed name starts with a dot. A folder that cannot be read offers nothing.
 */
export async function completeFolder(prefix: string, home: string): Promise<string[]> {
  const expanded = prefix === '~' || prefix.startsWith('~/') ? home + prefix.slice(1) : prefix;
  if (!path.isAbsolute(expanded)) return [];
  const endsWithSep = expanded.endsWith('/') || expanded.endsWith(path.sep);
  const dir = endsWithSep ? expanded : path.dirname(expanded);
  const start = endsWithSep ? '' : path.basename(expanded);
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.name.startsWith(start)) continue;
    if (entry.name.startsWith('.') && !start.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    const isDir =
      entry.isDirectory() ||
      (entry.isSymbolicLink() &&
        (await fs.promises.stat(full).then(
          (s) => s.isDirectory(),
          () => false,
        )));
    if (!isDir) continue;
    out.push(full);
    if (out.length >= MAX_FOLDERS) break;
  }
  return out;
}
