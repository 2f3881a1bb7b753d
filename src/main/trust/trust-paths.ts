import fs from 'node:fs';
import path from 'node:path';

/**
 * How the trust store names a folder: its real path (symlinks resolved, `..` gone). A folder that does not exist
 * (any more) is named by the real path of its nearest existing ancestor plus the missing segments, so a deleted
 * project can still be looked up and revoked.
 */
/** `realFolderPath` without blocking. */
export async function realFolderPathAsync(dir: string): Promise<string> {
  const absolute = path.resolve(dir);
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      const real = await fs.promises.realpath(current);
      return missing.length ? path.join(real, ...missing.reverse()) : real;
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return absolute;
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

export function realFolderPath(dir: string): string {
  const absolute = path.resolve(dir);
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      const real = fs.realpathSync.native(current);
      return missing.length ? path.join(real, ...missing.reverse()) : real;
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return absolute;
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

/** The key a decision is stored under: the real path, case-folded where the file system ignores case. */
export function trustKey(realPath: string, caseInsensitive: boolean): string {
  const trimmed = realPath.length > 1 && /[\\/]$/.test(realPath) && path.dirname(realPath) !== realPath ? realPath.slice(0, -1) : realPath;
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

/** macOS and Windows file systems ignore case by default; Linux's do not. */
export function defaultCaseInsensitive(): boolean {
  return process.platform === 'darwin' || process.platform === 'win32';
}
