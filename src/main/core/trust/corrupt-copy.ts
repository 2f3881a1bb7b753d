import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomicAsync } from '../fs/atomic-write';

/** A copy of this same bad content kept earlier (by this or another process), so copies do not pile up. */
async function findCorruptCopy(storeFile: string, raw: string): Promise<string | null> {
  const dir = path.dirname(storeFile);
  const prefix = `${path.basename(storeFile)}.corrupt-`;
  try {
    for (const name of await fs.promises.readdir(dir)) {
      if (!name.startsWith(prefix)) continue;
      const file = path.join(dir, name);
      if ((await fs.promises.stat(file)).size !== Buffer.byteLength(raw)) continue;
      if ((await fs.promises.readFile(file, 'utf8')) === raw) return file;
    }
  } catch {
    // no copy found: a new one is made
  }
  return null;
}

async function exists(file: string): Promise<boolean> {
  return fs.promises.lstat(file).then(
    () => true,
    () => false,
  );
}

/**
 * Keeps the content of a corrupt store file beside it (`trust.json.corrupt-<timestamp>`), so no decision the person
 * made is lost whatever happens to the file next. Returns the copy's path, or null if it could not be written.
 */
export async function keepCorruptCopy(storeFile: string, raw: string, now: Date): Promise<string | null> {
  const known = await findCorruptCopy(storeFile, raw);
  if (known) return known;
  try {
    const stamp = now.toISOString().replace(/[:.]/g, '-');
    let copy = `${storeFile}.corrupt-${stamp}`;
    for (let i = 1; await exists(copy); i++) copy = `${storeFile}.corrupt-${stamp}-${i}`;
    await writeFileAtomicAsync(copy, raw);
    return copy;
  } catch {
    return null;
  }
}
