/** Locating helper binaries (bwrap, socat) without a shell. */
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';

export async function isExecutable(file: string): Promise<boolean> {
  try {
    await fsp.access(file, fsp.constants.X_OK);
    return (await fsp.stat(file)).isFile();
  } catch {
    return false;
  }
}

/** The first executable `name` on PATH, or null. */
export async function findOnPath(name: string, pathVar = process.env.PATH ?? ''): Promise<string | null> {
  for (const dir of pathVar.split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, name);
    if (await isExecutable(candidate)) return candidate;
  }
  return null;
}
