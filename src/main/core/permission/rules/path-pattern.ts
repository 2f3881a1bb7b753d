import picomatch from 'picomatch';
import { HOST_PATHS, type PathSystem } from '../../../../shared/node/platform-path';

/**
 * Path patterns of Read/Edit rules, as globs: `//abs/path` is absolute, `~/x` is in the home directory, `/x`,
 * `./x` and `x/y` are relative to the project root, and a pattern with no slash (`.env`, `*.pem`) matches that
 * name in any folder (and everything below a folder of that name). Paths are matched in their rule form (POSIX
 * separators; on Windows `C:\Users\alice` is `/c/Users/alice`, see platform-path.ts), with names compared as the
 * volume compares them.
 */
export type PathMatcher = (absolutePath: string) => boolean;

export interface PathPatternBase {
  projectRoot: string;
  home: string;
  /** How paths are spelled and compared; this machine's when absent. */
  sys?: PathSystem;
}

/** What a pattern is relative to. */
export type PatternAnchor = 'project' | 'home' | 'filesystem' | 'anywhere';

/** A compiled pattern: its anchor and a test on the path relative to that anchor (posix separators). */
export interface CompiledPathPattern {
  anchor: PatternAnchor;
  test: (relative: string) => boolean;
  /** The pattern in rule form (Windows spellings such as `//C:/x` or `C:\x` rewritten as `//c/x`). */
  spec: string;
}

export function compilePathPatternParts(specifier: string, sys: PathSystem = HOST_PATHS): CompiledPathPattern {
  const spec = sys.canonicalRulePattern(specifier.trim());
  const nocase = sys.foldCase;
  let glob = spec;
  if (glob.endsWith('/')) glob += '**';
  const compiled = (anchor: PatternAnchor, pattern: string): CompiledPathPattern => ({
    anchor,
    test: picomatch(pattern, { dot: true, nocase }),
    spec,
  });
  if (glob === '~') return compiled('home', '**');
  if (glob.startsWith('//')) return compiled('filesystem', glob.slice(2));
  if (glob.startsWith('~/')) return compiled('home', glob.slice(2));
  if (glob.startsWith('/')) return compiled('project', glob.slice(1));
  if (glob.startsWith('./')) return compiled('project', glob.slice(2));
  if (glob.includes('/')) return compiled('project', glob);
  // No slash: that name in any folder, like a .gitignore entry (the file itself, or anything below such a folder).
  return { anchor: 'anywhere', test: picomatch([`**/${glob}`, `**/${glob}/**`], { dot: true, nocase }), spec };
}

/** An absolute path seen from every anchor (null where it lies outside that anchor): computed once per path. */
export type PathViews = Record<PatternAnchor, string | null>;

/** `abs` below `base` in rule form, names folded as the volume folds them; null for `base` itself or outside it. */
function relativeUnder(base: string, abs: string, sys: PathSystem): string | null {
  const rel = sys.relativeInside(abs, base);
  return rel ? sys.nameKey(sys.sep === '/' ? rel : rel.split(sys.sep).join('/')) : null;
}

export function pathViews(abs: string, base: PathPatternBase): PathViews {
  const sys = base.sys ?? HOST_PATHS;
  const fromRoot = sys.nameKey(sys.flavor === 'posix' ? abs.slice(sys.root(abs).length) : sys.toRuleForm(abs).slice(1));
  return {
    project: relativeUnder(base.projectRoot, abs, sys),
    home: relativeUnder(base.home, abs, sys),
    filesystem: fromRoot || null,
    anywhere: fromRoot || null,
  };
}

/** Convenience for one-off matching (tests, tools): compiles the pattern and tests an absolute path. */
export function compilePathPattern(specifier: string, base: PathPatternBase): PathMatcher {
  const compiled = compilePathPatternParts(specifier, base.sys);
  return (abs) => {
    const view = pathViews(abs, base)[compiled.anchor];
    return view !== null && compiled.test(view);
  };
}
