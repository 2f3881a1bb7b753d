import { expandHome, resolvePhysicalPath, type PathConfinement } from './path-confinement';

/** Where a path given by the model (or found in a command) really lands, and whether that is allowed ground. */
export interface JudgedPath {
  /** As written. */
  given: string;
  /** Absolute, `~` expanded, `..` applied lexically (symlinks not followed). */
  lexical: string;
  /** Absolute with every existing symlink resolved (nearest existing ancestor for new files). */
  real: string;
  /** The project root or additional directory it lies in, or null (outside, or unknown). */
  root: string | null;
  /** True when where it lands cannot be known from the text (expansion, changed working directory, link loop). */
  unknown: boolean;
  /** Where the kernel lands when `..` follows a symlink (`link/../x`), when that differs from `real`. */
  physical: string | null;
}

const DOT_DOT = /(^|[\\/])\.\.([\\/]|$)/;

/** With `..` after a symlink, the path judged inside must also be inside as the kernel resolves it. */
function physicalOf(confinement: PathConfinement, given: string, real: string): string | null {
  if (!DOT_DOT.test(given)) return null;
  const physical = resolvePhysicalPath(
    given,
    confinement.projectRoot,
    confinement.home,
    confinement.fs,
    confinement.sys,
  );
  return physical === real ? null : physical;
}

export function judgePath(confinement: PathConfinement, given: string, opts: { unknown?: boolean } = {}): JudgedPath {
  const sys = confinement.sys;
  const lexical = sys.resolve(confinement.projectRoot, expandHome(given, confinement.home, sys));
  try {
    const verdict = confinement.judge(given);
    const physical = physicalOf(confinement, given, verdict.real);
    // An unknown path still gets its best guess (`rm .gatehouse/*` is judged by the text it starts from); so does
    // a Windows short name, which may stand for any file of its folder.
    if (opts.unknown || sys.ambiguity(given) !== null)
      return { given, lexical, real: verdict.real, root: null, unknown: true, physical };
    const root =
      verdict.root !== null && (physical === null || sys.isInside(physical, verdict.root)) ? verdict.root : null;
    return { given, lexical, real: verdict.real, root, unknown: false, physical };
  } catch {
    return { given, lexical, real: lexical, root: null, unknown: true, physical: null };
  }
}

/** Both forms, for rule matching (deny/ask rules match either; allow rules match the real path). */
export function bothForms(p: JudgedPath): string[] {
  const forms = p.lexical === p.real ? [p.real] : [p.real, p.lexical];
  if (p.physical !== null) forms.push(p.physical);
  return forms;
}

/** The leading segments of a glob pattern that contain no glob character (`src/**\/*.ts` -> `src`). */
export function globBase(pattern: string): string {
  const absolute = pattern.startsWith('/');
  const segments = pattern.split(/[\\/]+/).filter((s) => s.length > 0);
  const fixed: string[] = [];
  for (const s of segments) {
    if (/[*?[\]{}()!]/.test(s)) break;
    fixed.push(s);
  }
  // The last fixed segment may be the file name itself: keep it, confinement handles files and folders alike.
  const joined = fixed.join('/');
  return absolute ? `/${joined}` : joined || '.';
}
