import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../fs/atomic-write';

/** A copy of this same bad content kept earlier (by this or another process), so copies do not pile up. */
function findCorruptCopy(storeFile: string, raw: string): string | null {
  const dir = path.dirname(storeFile);
  const prefix = `${path.basename(storeFile)}.corrupt-`;
  try {
    for (const name of fs.readdirSync(dir)) {
      if (!name.startsWith(prefix)) continue;
      const file = path.join(dir, name);
      if (fs.statSync(file).size === Buffer.byteLength(raw) && fs.readFileSync(file, 'utf8') === raw) return file;
    }
  } catch {
    // no copy found: a new one is made
  }
  return null;
}

/**
 * Keeps the content of a corrupt store file beside it (`trust.json.corrupt-<timestamp>`), so no decision the person
 * made is lost whatever happens to the file next. Returns the copy's path, or null if it could not be written.
 */
export function keepCorruptCopy(storeFile: string, raw: string, now: Date): string | null {
  const known = findCorruptCopy(storeFile, raw);
  if (known) return known;
  try {
    const stamp = now.toISOString().replace(/[:.]/g, '-');
    let copy = `${storeFile}.corrupt-${stamp}`;
    for (let i = 1; fs.existsSync(copy); i++) copy = `${storeFile}.corrupt-${stamp}-${i}`;
    writeFileAtomic(copy, raw);
    return copy;
  } catch {
    return null;
  }
}
