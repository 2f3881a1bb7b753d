import path from 'node:path';
import { HOST_PATHS } from './platform-path';

/**
 * "Is this path inside that root": the one answer main and the worker share (lexical: resolve symlinks first where
 * a link could lead out), for this machine's paths. Node-only, so it lives in shared/node: the renderer and the
 * preload never import it. The engine, which may judge another platform's paths and knows each volume's case
 * folding, asks its own PathSystem (platform-path.ts); these are that module's answers for the host.
 */

export interface ContainmentOptions {
  /** Compare ignoring case (pass FS_CASE where the file system decides). */
  foldCase?: boolean;
}

/**
 * True when a `path.relative(base, p)` result lies outside `base`: `..`, `../x` (either separator) or another root.
 * A name that merely starts with two dots (`..cache`, `...`) is inside.
 */
export function relativeEscapes(rel: string): boolean {
  return rel === '..' || rel.startsWith(`..${path.sep}`) || rel.startsWith('../') || path.isAbsolute(rel);
}

/** `p` relative to `root` ('' for the root itself), or null when `p` lies outside it. */
export function relativeInside(p: string, root: string, options: ContainmentOptions = {}): string | null {
  return HOST_PATHS.withFoldCase(options.foldCase === true).relativeInside(p, root);
}

/** True when `p` is `root` or lies below it. */
export function isInside(p: string, root: string, options: ContainmentOptions = {}): boolean {
  return relativeInside(p, root, options) !== null;
}

/** True when `p` lies below `root` (not the root itself): a file served from a folder, never the folder. */
export function isStrictlyInside(p: string, root: string, options: ContainmentOptions = {}): boolean {
  const rel = relativeInside(p, root, options);
  return rel !== null && rel !== '';
}

/** True when `p` is inside any of `roots`. */
export function isInsideAny(p: string, roots: readonly string[], options: ContainmentOptions = {}): boolean {
  return roots.some((root) => isInside(p, root, options));
}

/** Containment as this machine's file systems usually see it: case folded on macOS and Windows. */
export const FS_CASE: ContainmentOptions = { foldCase: HOST_PATHS.foldCase };
