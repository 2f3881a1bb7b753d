import path from 'node:path';
import picomatch from 'picomatch';
import { relativeInside } from '../../../shared/node/path-containment';

/**
 * Path patterns of Read/Edit rules, as globs: `//abs/path` is absolute, `~/x` is in the home directory, `/x`,
 * `./x` and `x/y` are relative to the project root, and a pattern with no slash (`.env`, `*.pem`) matches that
 * name in any folder (and everything below a folder of that name).
 */
export type PathMatcher = (absolutePath: string) => boolean;

export interface PathPatternBase {
  projectRoot: string;
  home: string;
}

/** What a pattern is relative to. */
export type PatternAnchor = 'project' | 'home' | 'filesystem' | 'anywhere';

/** A compiled pattern: its anchor and a test on the path relative to that anchor (posix separators). */
export interface CompiledPathPattern {
  anchor: PatternAnchor;
  test: (relative: string) => boolean;
}

const nocase = process.platform === 'darwin' || process.platform === 'win32';

function toPosix(p: string): string {
  return path.sep === '/' ? p : p.split(path.sep).join('/');
}

export function compilePathPatternParts(specifier: string): CompiledPathPattern {
  let spec = specifier.trim();
  if (spec.endsWith('/')) spec += '**';
  const glob = (anchor: PatternAnchor, pattern: string): CompiledPathPattern => ({
    anchor,
    test: picomatch(pattern, { dot: true, nocase }),
  });
  if (spec === '~') return glob('home', '**');
  if (spec.startsWith('//')) return glob('filesystem', spec.slice(2));
  if (spec.startsWith('~/')) return glob('home', spec.slice(2));
  if (spec.startsWith('/')) return glob('project', spec.slice(1));
  if (spec.startsWith('./')) return glob('project', spec.slice(2));
  if (spec.includes('/')) return glob('project', spec);
  // No slash: that name in any folder, like a .gitignore entry (the file itself, or anything below such a folder).
  return { anchor: 'anywhere', test: picomatch([`**/${spec}`, `**/${spec}/**`], { dot: true, nocase }) };
}

/** An absolute path seen from every anchor (null where it lies outside that anchor): computed once per path. */
export type PathViews = Record<PatternAnchor, string | null>;

/** `abs` below `base` in POSIX form; null for `base` itself or a path outside it. */
function relativeUnder(base: string, abs: string): string | null {
  const rel = relativeInside(abs, base);
  return rel ? toPosix(rel) : null;
}

export function pathViews(abs: string, base: PathPatternBase): PathViews {
  const root = path.parse(abs).root;
  const fromRoot = toPosix(abs.slice(root.length));
  return {
    project: relativeUnder(base.projectRoot, abs),
    home: relativeUnder(base.home, abs),
    filesystem: fromRoot || null,
    anywhere: fromRoot || null,
  };
}

/** Convenience for one-off matching (tests, tools): compiles the pattern and tests an absolute path. */
export function compilePathPattern(specifier: string, base: PathPatternBase): PathMatcher {
  const compiled = compilePathPatternParts(specifier);
  return (abs) => {
    const view = pathViews(abs, base)[compiled.anchor];
    return view !== null && compiled.test(view);
  };
}
