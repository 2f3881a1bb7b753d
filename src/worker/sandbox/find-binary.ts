/** Locating helper binaries (bwrap, socat) without a shell. */
import * as fs from 'node:fs';
import * as path from 'node:path';

export function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The first executable `name` on PATH, or null. */
export function findOnPath(name: string, pathVar = process.env.PATH ?? ''): string | null {
  for (const dir of pathVar.split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}
