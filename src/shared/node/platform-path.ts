import path from 'node:path';

/**
 * Paths as one platform spells and compares them: the one place main and the worker ask "is this absolute", "where
 * does this resolve", "is it inside that root", "are these the same file" and "what is its rule form". A value of
 * this class is a flavour (POSIX or Windows) and whether its file system folds case; the host's comes from
 * `hostPathSystem`, a test builds `pathSystem('win32', true)` on Linux.
 *
 * POSIX is node's path.posix, unchanged. Windows is written out here rather than taken from path.win32, which resolves
 * against this process's working directory, keeps `\\?\` prefixes and compares case-insensitively whatever the
 * volume does. A Windows path is canonicalised the way the Win32 layer reads it before a file is opened:
 * - `/` and `\` are both separators; `\\?\C:\x`, `\\.\C:\x`, `\??\C:\x` are `C:\x`, `\\?\UNC\srv\share` is
 *   `\\srv\share`, and the administrative share of this machine (`\\localhost\c$\x`, `\\127.0.0.1\c$\x`) is `C:\x`;
 * - a name loses its trailing dots and spaces (`.env.` and `.git ` open `.env` and `.git`) and its stream suffix
 *   (`.env::$DATA` and `.gatehouse::$INDEX_ALLOCATION` are the file and the folder themselves);
 * - the drive letter is upper case.
 * The rule form is Claude Code's: `C:\Users\alice` is `/c/Users/alice` (so a rule names it `//c/Users/alice`), and a
 * network share `\\srv\share\x` is `//srv/share/x` (a rule: `///srv/share/x`, or `//srv/share/x` for a server name
 * longer than a drive letter).
 */

export type PathFlavor = 'posix' | 'win32';

/** The file systems of macOS and Windows fold case by default; a volume may say otherwise (see volume-case.ts). */
export function osFoldsCase(platform: NodeJS.Platform = process.platform): boolean {
  return platform === 'darwin' || platform === 'win32';
}

/** Code points HFS+ ignores in names (`.g\u200cit` is `.git` there), dropped from the keys of a folding POSIX volume. */
const HFS_IGNORABLE = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/g;
const NOT_PLAIN_ASCII = /[^ -~\t\n\r]/;

/**
 * One name (or a path) as a case-folding file system compares it: each character mapped to its simple upper case and
 * back to lower case, so `ſ` (long s) and `s`, `K` (Kelvin sign) and `k`, `ı` and `i` meet as NTFS's upcase table
 * and APFS's case folding make them meet. Folding more than a volume does only makes a protected name match more.
 */
function foldText(s: string): string {
  if (!NOT_PLAIN_ASCII.test(s)) return s.toLowerCase();
  let out = '';
  for (const ch of s) {
    const upper = ch.toUpperCase();
    const base = [...upper].length === 1 ? upper : ch;
    const lower = base.toLowerCase();
    out += [...lower].length === 1 ? lower : base;
  }
  return out;
}

/** A Windows path split at its root: `C:\`, `C:` (drive-relative), `\\srv\share\`, `\` (rooted), or '' (relative). */
interface Win32Parts {
  root: string;
  /** Names below the root, cleaned, `.` and `..` still in place. */
  names: string[];
}

const DRIVE_ABSOLUTE = /^([A-Za-z]):\\/;
const DRIVE_RELATIVE = /^([A-Za-z]):/;
/** The machine's own administrative shares: `\\localhost\c$\x` is `C:\x`. */
const ADMIN_SHARE = /^\\\\(?:localhost|127\.0\.0\.1)\\([A-Za-z])\$(?=\\|$)/i;

/** `\\?\`, `\\.\` and `\??\` before a drive or `UNC\`: the namespaces that name the same files. */
function stripNamespace(s: string): string {
  const unc = /^(?:\\\\[?.]\\|\\\?\?\\)UNC\\/i.exec(s);
  if (unc) return `\\\\${s.slice(unc[0].length)}`;
  const drive = /^(?:\\\\[?.]\\|\\\?\?\\)(?=[A-Za-z]:(?:\\|$))/.exec(s);
  if (drive) return s.slice(drive[0].length);
  return s;
}

/** A name as the Win32 layer opens it: no stream suffix, no trailing dots or spaces (`...` and `. ` name the folder). */
function cleanName(name: string): string {
  if (name === '.' || name === '..') return name;
  const colon = name.indexOf(':');
  const base = colon >= 0 ? name.slice(0, colon) : name;
  return base.replace(/[. ]+$/, '');
}

function win32Parts(p: string): Win32Parts {
  let s = stripNamespace(p.replace(/\//g, '\\'));
  const admin = ADMIN_SHARE.exec(s);
  if (admin) s = `${admin[1]!.toUpperCase()}:${s.slice(admin[0].length) || '\\'}`;
  let root: string;
  let rest: string;
  const unc = /^\\\\([^\\]+)(?:\\([^\\]*))?(?:\\|$)/.exec(s);
  const drive = DRIVE_ABSOLUTE.exec(s) ?? DRIVE_RELATIVE.exec(s);
  if (unc) {
    root = `\\\\${unc[1]}\\${unc[2] ?? ''}\\`;
    rest = s.slice(unc[0].length);
  } else if (drive) {
    root = drive[0].length === 3 ? `${drive[1]!.toUpperCase()}:\\` : `${drive[1]!.toUpperCase()}:`;
    rest = s.slice(drive[0].length);
  } else if (s.startsWith('\\')) {
    root = '\\';
    rest = s.slice(1);
  } else {
    root = '';
    rest = s;
  }
  const names = rest
    .split('\\')
    .map(cleanName)
    .filter((n) => n !== '' && n !== '.');
  return { root, names };
}

/** `..` applied to the names; above a root it stays at the root, above a relative start it is kept. */
function collapse(names: readonly string[], rooted: boolean): string[] {
  const out: string[] = [];
  for (const n of names) {
    if (n !== '..') out.push(n);
    else if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
    else if (!rooted) out.push(n);
  }
  return out;
}

function fullyQualified(root: string): boolean {
  return root.length > 2 && root.endsWith('\\');
}

export class PathSystem {
  readonly sep: '/' | '\\';

  constructor(
    readonly flavor: PathFlavor,
    /** Names that differ only in case are one file (decided per volume: see volume-case.ts). */
    readonly foldCase: boolean,
  ) {
    this.sep = flavor === 'win32' ? '\\' : '/';
  }

  /** The same flavour with case folding decided anew. */
  withFoldCase(foldCase: boolean): PathSystem {
    return pathSystem(this.flavor, foldCase);
  }

  /** Has a root of its own: `/x`; `C:\x`, `\\srv\share\x`, `\x` (`C:x` is relative to drive C's folder). */
  isAbsolute(p: string): boolean {
    if (this.flavor === 'posix') return path.posix.isAbsolute(p);
    const root = win32Parts(p).root;
    return root !== '' && !/^[A-Z]:$/.test(root);
  }

  /** Relative to some folder with no root at all (`a/b`, `../x`): what a base folder completes. */
  isRelative(p: string): boolean {
    return this.flavor === 'posix' ? !path.posix.isAbsolute(p) : win32Parts(p).root === '';
  }

  /** Canonical spelling: separators, `.` and `..` (lexically), and on Windows the rules above. */
  normalize(p: string): string {
    if (this.flavor === 'posix') return path.posix.normalize(p);
    const { root, names } = win32Parts(p);
    const kept = collapse(names, root !== '');
    const body = kept.join('\\');
    if (root === '') return body || '.';
    return root + body;
  }

  /**
   * `p` completed by `base` (absolute) and normalised. On Windows a rooted `\x` takes the drive of `base`, and
   * `D:x` on another drive than `base`'s is taken from that drive's root (its own working folder is not known).
   */
  resolve(base: string, ...rest: string[]): string {
    if (this.flavor === 'posix') return path.posix.resolve(base, ...rest);
    let current = base;
    for (const p of rest) current = this.qualify(current, p);
    const { root } = win32Parts(current);
    if (!fullyQualified(root)) {
      if (process.platform !== 'win32') throw new Error(`no folder to resolve ${current} against`);
      current = this.qualify(process.cwd(), current);
    }
    return this.normalize(current);
  }

  /**
   * `p` given a root from `base` when it has none of its own, without applying `..` (the caller follows links
   * segment by segment). POSIX: `p` when absolute, else `base/p`.
   */
  qualify(base: string, p: string): string {
    if (this.flavor === 'posix') return path.posix.isAbsolute(p) ? p : `${base}/${p}`;
    const parts = win32Parts(p);
    if (fullyQualified(parts.root)) return parts.root + parts.names.join('\\');
    const baseParts = win32Parts(base);
    const tail = parts.names.join('\\');
    const baseDrive = baseParts.root.slice(0, 2);
    if (parts.root === '\\') return fullyQualified(baseParts.root) ? `${baseParts.root}${tail}` : `\\${tail}`;
    if (parts.root !== '' && parts.root !== baseDrive) return `${parts.root}\\${tail}`;
    const baseText = baseParts.root + baseParts.names.join('\\');
    if (tail === '') return baseText;
    return baseText.endsWith('\\') ? baseText + tail : `${baseText}\\${tail}`;
  }

  join(...parts: string[]): string {
    if (this.flavor === 'posix') return path.posix.join(...parts);
    return this.normalize(parts.filter((p) => p !== '').join('\\'));
  }

  /** The root of a path: `/`, `C:\`, `\\srv\share\`; '' for a relative one. */
  root(p: string): string {
    return this.flavor === 'posix' ? path.posix.parse(p).root : win32Parts(p).root;
  }

  dirname(p: string): string {
    if (this.flavor === 'posix') return path.posix.dirname(p);
    const { root, names } = win32Parts(p);
    if (names.length === 0) return root || '.';
    const up = names.slice(0, -1).join('\\');
    return root + up || '.';
  }

  basename(p: string): string {
    if (this.flavor === 'posix') return path.posix.basename(p);
    const { names } = win32Parts(p);
    return names[names.length - 1] ?? '';
  }

  /** The names below the root, separators of either kind (`C:\a\b` and `/a/b`: `a`, `b`). */
  segments(p: string): string[] {
    if (this.flavor === 'posix') {
      const n = path.posix.normalize(p);
      return n
        .slice(path.posix.parse(n).root.length)
        .split('/')
        .filter((s) => s !== '' && s !== '.');
    }
    return collapse(win32Parts(p).names, true);
  }

  /**
   * The names of a relative path as the engine walks it (symlink by symlink): split at both separators, `.` dropped,
   * `..` kept. On Windows each name is cleaned as the Win32 layer does.
   */
  walkNames(rel: string): string[] {
    const parts = rel.split(/[\\/]+/).filter((s) => s.length > 0 && s !== '.');
    return this.flavor === 'posix' ? parts : parts.map(cleanName).filter((s) => s.length > 0 && s !== '.');
  }

  /** One name (or a `/`-separated relative path) as this file system compares it. */
  nameKey(name: string): string {
    if (!this.foldCase) return name;
    const folded = foldText(name);
    return this.flavor === 'posix' ? folded.replace(HFS_IGNORABLE, '') : folded;
  }

  /** What two spellings of one file have in common: normalised, case folded where the volume folds case. */
  key(p: string): string {
    const n = this.normalize(p);
    if (this.flavor === 'posix') return this.nameKey(n);
    const { root } = win32Parts(n);
    // drive letters and server and share names never depend on the volume's case
    return root.toLowerCase() + this.nameKey(n.slice(root.length));
  }

  same(a: string, b: string): boolean {
    return this.key(a) === this.key(b);
  }

  /** `p` relative to `root` ('' for the root itself, in this flavour's separators), or null when `p` lies outside it. */
  relativeInside(p: string, root: string): string | null {
    if (this.flavor === 'posix' && !this.foldCase) {
      const rel = path.posix.relative(root, p);
      return rel === '..' || rel.startsWith('../') || path.posix.isAbsolute(rel) ? null : rel;
    }
    const a = this.normalize(p);
    const b = this.normalize(root);
    const rootA = this.root(a);
    const rootB = this.root(b);
    if (rootA.toLowerCase() !== rootB.toLowerCase()) return null;
    if (this.flavor === 'posix' && rootA !== rootB) return null;
    const namesA = this.segments(a);
    const namesB = this.segments(b);
    if (namesA.length < namesB.length || namesA[0] === '..' || namesB[0] === '..') return null;
    for (let i = 0; i < namesB.length; i++) {
      if (this.nameKey(namesA[i]!) !== this.nameKey(namesB[i]!)) return null;
    }
    return namesA.slice(namesB.length).join(this.sep);
  }

  isInside(p: string, root: string): boolean {
    return this.relativeInside(p, root) !== null;
  }

  /** The rule form of an absolute path: POSIX as it is; Windows `/c/Users/alice`, `//srv/share/x`. */
  toRuleForm(abs: string): string {
    if (this.flavor === 'posix') return abs.split(path.posix.sep).join('/');
    const n = this.normalize(abs);
    const { root, names } = win32Parts(n);
    const tail = names.length > 0 ? `/${names.join('/')}` : '';
    const drive = /^([A-Z]):\\$/.exec(root);
    if (drive) return `/${drive[1]!.toLowerCase()}${tail}`;
    const unc = /^\\\\([^\\]*)\\([^\\]*)\\$/.exec(root);
    if (unc) return `//${unc[1]}/${unc[2]}${tail}`;
    return `/${names.join('/')}`;
  }

  /**
   * A path rule's pattern with its Windows spellings turned into the rule form (identity on POSIX): `//C:/x`, `C:\x`,
   * `C:/x` and `//C/x` are `//c/x`; `\\srv\share\x` and `//srv/share/x` are `///srv/share/x`; other backslashes are
   * separators (`src\secret\**`: a name cannot hold one on Windows).
   */
  canonicalRulePattern(pattern: string): string {
    if (this.flavor === 'posix') return pattern;
    let s = pattern.replace(/\\/g, '/');
    const ns = /^\/\/[?.]\/(?:UNC\/)?/i.exec(s);
    if (ns) s = /UNC\/$/i.test(ns[0]) ? `///${s.slice(ns[0].length)}` : `//${s.slice(ns[0].length)}`;
    const drive = /^(?:\/\/)?([A-Za-z]):(?=\/|$)/.exec(s) ?? /^\/\/([A-Za-z])(?=\/|$)/.exec(s);
    if (drive) return `//${drive[1]!.toLowerCase()}${s.slice(drive[0].length)}`;
    // `//srv/share`: a server (a drive is one letter); `///srv/share` already says so
    if (/^\/\/[^/]{2,}/.test(s) && !/^\/\/[*?[{]/.test(s)) return `/${s}`;
    return s;
  }

  /**
   * The absolute path a shell word names, where a POSIX shell on this platform spells paths its own way: on Windows
   * (Git Bash) `/c/x` is `C:\x`, and a word joined after a folder (`sub/C:/x`, from a `cd` the analysis followed)
   * starts over at its own root. A rooted path of the shell's own tree (`/tmp/x`, `/usr/bin`) names a folder only
   * the shell knows: null. POSIX: the word itself.
   */
  fromShell(word: string): string | null {
    if (this.flavor === 'posix') return word;
    const parts = word.split('/');
    for (let i = parts.length - 1; i > 0; i--) {
      const part = parts[i]!;
      // a drive (`C:`, `C:\x`) or a share (`\\srv`) where a name was expected; `x:y` is a name with a stream
      if (/^[A-Za-z]:(\\|$)/.test(part) || part.startsWith('\\\\')) return this.fromShell(parts.slice(i).join('/'));
    }
    // `\\?\C:\x` is `C:\x` (its `?` is no glob once the shell passed it on)
    if (/^[\\/]{2}[?.][\\/]/.test(word)) return stripNamespace(word.replace(/\//g, '\\'));
    const msys = /^\/([A-Za-z])(?=\/|$)/.exec(word);
    if (msys) return `${msys[1]!.toUpperCase()}:\\${word.slice(2).replace(/^\/+/, '')}`;
    if (/^\/(?!\/)/.test(word)) return null;
    return word;
  }

  /**
   * Why a path's text cannot say which file it names, or null. On Windows a name like `GATEHO~1` or `ENV~1` may be
   * the 8.3 short name of any file in its folder (`.gatehouse`, `.env`), and a name of dots and spaces other than
   * `.` and `..` (`...`, `.. `) is this folder or its parent depending on which layer reads it.
   */
  ambiguity(p: string): string | null {
    if (this.flavor === 'posix') return null;
    const names = p
      .replace(/\//g, '\\')
      .split('\\')
      .map((n) => n.replace(/:.*$/, ''));
    const dots = names.find((n) => /^[. ]+$/.test(n) && n !== '.' && n !== '..');
    if (dots !== undefined) return `"${dots}" may name this folder or its parent`;
    const short = names.find((n) => /^[^~]{1,7}~\d+(\.[^.]{0,3})?[. ]*$/.test(n));
    return short === undefined ? null : `"${short}" may be the short (8.3) name of another file`;
  }
}

const systems = new Map<string, PathSystem>();

/** The path system of a flavour and case folding (one shared value of each). */
export function pathSystem(flavor: PathFlavor, foldCase: boolean): PathSystem {
  const id = `${flavor}:${foldCase}`;
  let sys = systems.get(id);
  if (!sys) systems.set(id, (sys = new PathSystem(flavor, foldCase)));
  return sys;
}

/** This machine's flavour; case folding as the OS usually does (a volume's own answer: volume-case.ts). */
export const HOST_PATHS = pathSystem(process.platform === 'win32' ? 'win32' : 'posix', osFoldsCase());
