import path from 'node:path';
import { HOST_PATHS, type PathSystem } from '../../../shared/node/platform-path';
import type { JudgedPath } from '../paths/judged-path';
import { configFolderOf, isSensitiveFile } from './sensitive-files';

/**
 * The paths the defaults guard (contract "Defaults"), as judged paths: secrets to read, code-running folders to write.
 * The rules stage needs them too, because a broad allow rule never unlocks them (see rules/narrow-pattern.ts).
 * Names are compared as the volume compares them (`sys`: `.ENV` is `.env` where the volume folds case).
 */

/** Looks like a secret where it really is, as written, or where the kernel lands. */
export function isSecretPath(p: JudgedPath, sys: PathSystem = HOST_PATHS): boolean {
  return (
    isSensitiveFile(p.real, sys) ||
    isSensitiveFile(p.lexical, sys) ||
    (p.physical !== null && isSensitiveFile(p.physical, sys))
  );
}

/** The code-running folder (`.git`, `.vscode`, ...) the path lies under, relative to its root or the project's. */
export function codeFolderOf(projectRoot: string, p: JudgedPath, sys: PathSystem = HOST_PATHS): string | null {
  const candidates = [p.root ? sys.relativeInside(p.real, p.root) : null, sys.relativeInside(p.lexical, projectRoot)];
  for (const rel of candidates) {
    if (rel === null) continue;
    const hit = configFolderOf(rel, sys);
    if (hit) return hit;
  }
  return null;
}

/** The file name of a path read from an unknown place, or null when the name itself is computed. */
export function unknownName(given: string): string | null {
  const name = path.posix.basename(given);
  return /[$`*?[{]/.test(name) || name === '' || name.startsWith('(') ? null : name;
}

/** A path only the run knows whose name is computed or a secret's: it may be a secret file. */
export function mayBeSecret(p: JudgedPath, sys: PathSystem = HOST_PATHS): boolean {
  if (!p.unknown) return isSecretPath(p, sys);
  const name = unknownName(p.given);
  return name === null || isSensitiveFile(name, sys) || isSecretPath(p, sys);
}
