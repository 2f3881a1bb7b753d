import fs from 'node:fs';
import { osFoldsCase, type PathSystem } from './platform-path';

/**
 * Whether the volume a folder lies on folds case, asked of the volume rather than guessed from the OS: macOS volumes
 * may be case-sensitive, a Linux mount (vfat, an ext4 `casefold` folder, SMB) may fold case. The probe looks the
 * folder up with the case of its last letter-bearing name flipped (`/Users/Alice/Proj` as `/Users/Alice/pROJ`) and
 * compares what it finds: the same file (device and inode) means the volume folds case; nothing, or another file,
 * means it does not. A path with no letter to flip asks its parent. One answer per folder per process.
 */

/** What the probe needs of the disk: `stat` (following links), null when nothing is there. */
export type ProbeStat = (p: string) => Promise<{ dev: number | bigint; ino: number | bigint } | null>;

const nodeStat: ProbeStat = (p) => fs.promises.stat(p, { bigint: true }).catch(() => null);

const answers = new Map<string, Promise<boolean | null>>();

/** A name with the case of each of its letters swapped (`Proj` -> `pROJ`), or null when it has no cased letter. */
function flipped(name: string): string | null {
  let out = '';
  for (const ch of name) {
    const upper = ch.toUpperCase();
    const lower = ch.toLowerCase();
    out += ch === upper ? lower : upper;
  }
  return out === name ? null : out;
}

async function probe(dir: string, sys: PathSystem, stat: ProbeStat): Promise<boolean | null> {
  let current = sys.normalize(dir);
  for (;;) {
    const parent = sys.dirname(current);
    if (parent === current) return null;
    const other = flipped(sys.basename(current));
    if (other !== null) {
      const [a, b] = await Promise.all([stat(current), stat(sys.join(parent, other))]);
      if (a === null) return null;
      if (b === null) return false;
      return a.dev === b.dev && a.ino === b.ino;
    }
    current = parent;
  }
}

/**
 * Whether the volume holding `dir` folds case; the usual answer (yes on Windows and macOS) when the probe cannot
 * tell (no letter in the path, the folder missing). Cached per folder.
 */
export async function volumeFoldsCase(dir: string, sys: PathSystem, stat: ProbeStat = nodeStat): Promise<boolean> {
  const id = `${sys.flavor}:${dir}`;
  let answer = stat === nodeStat ? answers.get(id) : undefined;
  if (answer === undefined) {
    answer = probe(dir, sys, stat).catch(() => null);
    if (stat === nodeStat) answers.set(id, answer);
  }
  return (await answer) ?? (sys.flavor === 'win32' || osFoldsCase());
}
