import fs from 'node:fs';
import path from 'node:path';

/**
 * How the trust store names a folder: its real path (symlinks resolved, `..` gone). A folder that does not exist
 * (any more) is named by the real path of its nearest existing ancestor plus the missing segments, so a deleted
 * project can still be looked up and revoked.
 */
export async function realFolderPath(dir: string): Promise<string> {
  for (const { at, missing } of existingAncestors(dir)) {
    try {
      return path.join(await fs.promises.realpath(at), ...missing);
    } catch {
      // not there: try its parent
    }
  }
  return path.resolve(dir);
}

/** `dir` and each of its parents, with the names below it that a real path gets back (the nearest one that exists wins). */
function* existingAncestors(dir: string): Generator<{ at: string; missing: string[] }> {
  const missing: string[] = [];
  let current = path.resolve(dir);
  for (;;) {
    yield { at: current, missing: [...missing].reverse() };
    const parent = path.dirname(current);
    if (parent === current) return;
    missing.push(path.basename(current));
    current = parent;
  }
}

/** The key a decision is stored under: the real path, case-folded where the file system ignores case. */
export function trustKey(realPath: string, caseInsensitive: boolean): string {
  const trimmed =
    realPath.length > 1 && /[\\/]$/.test(realPath) && path.dirname(realPath) !== realPath
      ? realPath.slice(0, -1)
      : realPath;
  return caseInsensitive ? trimmed.toLowerCase() : trimmed;
}

/** The folder itself, then each ancestor up to the file-system root. */
export function selfAndAncestors(realPath: string): string[] {
  const out: string[] = [];
  let current = realPath;
  for (;;) {
    out.push(current);
    const parent = path.dirname(current);
    if (parent === current) return out;
    current = parent;
  }
}
