import path from 'node:path';
import { relativeEscapes } from '../../shared/node/path-containment';
import type { JudgedPath } from './judged-path';
import { configFolderOf, isSensitiveFile } from './sensitive-files';

/**
 * The paths the defaults guard (contract "Defaults"), as judged paths: secrets to read, code-running folders to write.
 * The rules stage needs them too, because a broad allow rule never unlocks them (see rules/narrow-pattern.ts).
 */

/** Looks like a secret where it really is, as written, or where the kernel lands. */
export function isSecretPath(p: JudgedPath): boolean {
  return isSensitiveFile(p.real) || isSensitiveFile(p.lexical) || (p.physical !== null && isSensitiveFile(p.physical));
}

/** The code-running folder (`.git`, `.vscode`, ...) the path lies under, relative to its root or the project's. */
export function codeFolderOf(projectRoot: string, p: JudgedPath): string | null {
  const candidates = [p.root ? path.relative(p.root, p.real) : null, path.relative(projectRoot, p.lexical)];
  for (const rel of candidates) {
    if (rel === null || relativeEscapes(rel)) continue;
    const hit = configFolderOf(rel);
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
export function mayBeSecret(p: JudgedPath): boolean {
  if (!p.unknown) return isSecretPath(p);
  const name = unknownName(p.given);
  return name === null || isSensitiveFile(name) || isSecretPath(p);
}
