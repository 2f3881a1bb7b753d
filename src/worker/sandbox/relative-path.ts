import path from 'node:path';

/**
 * True when a `path.relative(base, p)` result lies outside `base`: `..`, `../x` (either separator) or another root.
 * A name that merely starts with two dots (`..cache`) is inside. (main's twin is `relEscapes` in src/main/paths.ts.)
 */
export function escapes(rel: string): boolean {
  return rel === '..' || rel.startsWith(`..${path.sep}`) || rel.startsWith('../') || path.isAbsolute(rel);
}
