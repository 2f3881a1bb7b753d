import { ANYWHERE, below, longPrefix, optionValue, type RunTimeReach } from './run-time-reach';
import type { SimpleCommand } from '../types';

/**
 * Archivers in the run-time write table (see run-time-writes.ts): extraction writes the archive's files under the
 * folder it extracts into; options that keep absolute names or `..` (`tar -P`, `unzip -:`, `7z -spf`, cpio without
 * --no-absolute-filenames, pax) reach anywhere.
 */

/** Letters of tar's old-style first word (`tar xzf a.tgz`) that take the next words as their values, in order. */
const TAR_VALUE_LETTERS = 'fCTXbHKLNVgI';

/** `tar xCf dir a.tar` as `tar -x -C dir -f a.tar`: old-style letters take their values from the following words. */
function tarArgv(argv: readonly string[]): { argv: string[]; index: (i: number) => number } {
  const first = argv[1];
  if (first === undefined || !/^[A-Za-z]+$/.test(first)) return { argv: [...argv], index: (i) => i };
  const out = [argv[0] as string];
  const from: number[] = [0];
  let next = 2;
  for (const letter of first) {
    out.push(`-${letter}`);
    from.push(-1);
    if (TAR_VALUE_LETTERS.includes(letter) && next < argv.length) {
      out.push(argv[next] as string);
      from.push(next++);
    }
  }
  for (; next < argv.length; next++) {
    out.push(argv[next] as string);
    from.push(next);
  }
  return { argv: out, index: (i) => from[i] ?? -1 };
}

/** tar, bsdtar, gtar: `-x`/`--extract`/`--get` writes under `-C` (cumulative) or the working directory. */
function tarReaches(cmd: SimpleCommand): RunTimeReach[] {
  const { argv, index } = tarArgv(cmd.argv);
  let extract = false;
  let toStdout = false;
  let absolute = false;
  /** `--one-top-level=DIR`: everything goes into DIR, taken from the extraction folder. */
  const oneTop: string[] = [];
  const dirs: { value: string; index: number }[] = [];
  let dir = '.';
  const enter = (value: string, at: number): void => {
    dir = value.startsWith('/') || value.startsWith('~') ? value : dir === '.' ? value : `${dir}/${value}`;
    dirs.push({ value: dir, index: index(at) });
  };
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '--') break;
    if (!a.startsWith('-') || a === '-') continue;
    if (a.startsWith('--')) {
      if (longPrefix(a, '--extract', 2) || longPrefix(a, '--get', 1)) extract = true;
      else if (a === '--to-stdout') toStdout = true;
      else if (longPrefix(a, '--absolute-names', 2)) absolute = true;
      else if (longPrefix(a, '--one-top-level', 3) && a.includes('=')) oneTop.push(a.slice(a.indexOf('=') + 1));
      else if (longPrefix(a, '--directory', 2)) {
        const v = optionValue(argv, i, false);
        if (v !== null) {
          enter(v.value, v.index);
          i += v.used - 1;
        }
      }
      continue;
    }
    for (let j = 1; j < a.length; j++) {
      const ch = a[j] as string;
      if (ch === 'x') extract = true;
      else if (ch === 'O') toStdout = true;
      else if (ch === 'P') absolute = true;
      else if (TAR_VALUE_LETTERS.includes(ch)) {
        const attached = a.slice(j + 1);
        const value = attached.length > 0 ? attached : argv[i + 1];
        if (ch === 'C' && value !== undefined) enter(value, attached.length > 0 ? i : i + 1);
        if (attached.length === 0) i++;
        break;
      }
    }
  }
  if (!extract || toStdout) return [];
  const why = `${cmd.name} -x writes the archive's files`;
  if (absolute) return [ANYWHERE(`${why} where the archive says (-P keeps absolute names and ..)`)];
  const folders = dirs.length === 0 ? [below('.', -1, why)] : dirs.map((d) => below(d.value, d.index, why));
  const tops = oneTop.flatMap((t) =>
    folders.map((f) => below(t.startsWith('/') || f.value === '.' ? t : `${f.value}/${t}`, -1, why)),
  );
  return [...folders, ...tops];
}

/** unzip: `-d DIR` or the working directory; `-:` lets `../` through; listing options write nothing. */
function unzipReaches(cmd: SimpleCommand): RunTimeReach[] {
  let dir: { value: string; index: number } | null = null;
  let listing = false;
  let escape = false;
  for (let i = 1; i < cmd.argv.length; i++) {
    const a = cmd.argv[i] as string;
    if (!a.startsWith('-') || a === '-' || a.startsWith('--')) continue;
    for (let j = 1; j < a.length; j++) {
      const ch = a[j] as string;
      if (ch === 'd' || ch === 'P') {
        const attached = a.slice(j + 1);
        const at = attached.length > 0 ? i : i + 1;
        const value = attached.length > 0 ? attached : cmd.argv[i + 1];
        if (ch === 'd' && value !== undefined) dir = { value, index: at };
        if (attached.length === 0) i++;
        break;
      }
      if (ch === 'x') break; // the rest are members to leave out
      if (ch === ':') escape = true;
      if ('lptvzZc'.includes(ch)) listing = true;
    }
  }
  if (listing) return [];
  const why = "unzip writes the archive's files";
  if (escape) return [ANYWHERE(`${why} where the archive says (-: lets ../ through)`)];
  return [dir === null ? below('.', -1, why) : below(dir.value, dir.index, why)];
}

/** 7z/7za/7zr/7zz `x`/`e`: `-oDIR` (attached) or the working directory; `-spf` allows absolute paths. */
function sevenZipReaches(cmd: SimpleCommand): RunTimeReach[] {
  const command = cmd.argv.slice(1).find((a) => !a.startsWith('-'));
  if (command !== 'x' && command !== 'e') return [];
  if (cmd.argv.includes('-so')) return [];
  const why = `${cmd.name} ${command} writes the archive's files`;
  if (cmd.argv.some((a) => a.startsWith('-spf'))) return [ANYWHERE(`${why} where the archive says (-spf)`)];
  const out = cmd.argv.flatMap((a, i) => (a.startsWith('-o') && a.length > 2 ? [below(a.slice(2), i, why)] : []));
  return out.length > 0 ? out : [below('.', -1, why)];
}

/** unrar/rar `x`/`e`: the last operand ending in `/` (or `-op<dir>`), else the working directory. */
function rarReaches(cmd: SimpleCommand): RunTimeReach[] {
  const operands = cmd.argv
    .map((value, index) => ({ value, index }))
    .filter((o) => o.index > 0 && !o.value.startsWith('-'));
  if (operands[0]?.value !== 'x' && operands[0]?.value !== 'e') return [];
  const why = `${cmd.name} ${operands[0].value} writes the archive's files`;
  const out = cmd.argv.flatMap((a, i) => (a.startsWith('-op') && a.length > 3 ? [below(a.slice(3), i, why)] : []));
  const last = operands[operands.length - 1];
  if (operands.length > 2 && last !== undefined && /[/\\]$/.test(last.value))
    out.push(below(last.value, last.index, why));
  return out.length > 0 ? out : [below('.', -1, why)];
}

/** cpio `-i`: the working directory (`-D`), or anywhere: absolute names are kept unless --no-absolute-filenames. */
function cpioReaches(cmd: SimpleCommand): RunTimeReach[] {
  const shorts = cmd.argv.filter((a) => /^-[a-zA-Z]+$/.test(a)).join('');
  const extract = shorts.includes('i') || cmd.argv.some((a) => longPrefix(a, '--extract', 2));
  const pass = shorts.includes('p') || cmd.argv.some((a) => longPrefix(a, '--pass-through', 2));
  if (pass) {
    const dest = cmd.argv
      .map((value, index) => ({ value, index }))
      .filter((o) => o.index > 0 && !o.value.startsWith('-'))
      .pop();
    return [
      dest === undefined
        ? below('.', -1, 'cpio -p copies files')
        : below(dest.value, dest.index, 'cpio -p copies files'),
    ];
  }
  if (!extract) return [];
  const why = "cpio -i writes the archive's files";
  if (!cmd.argv.includes('--no-absolute-filenames'))
    return [ANYWHERE(`${why} where the archive says (absolute names are kept)`)];
  const dirs = cmd.argv.flatMap((a, i) =>
    a === '-D' && cmd.argv[i + 1] !== undefined
      ? [below(cmd.argv[i + 1] as string, i + 1, why)]
      : a.startsWith('--directory=')
        ? [below(a.slice(12), i, why)]
        : [],
  );
  return dirs.length > 0 ? dirs : [below('.', -1, why)];
}

/** `ar x`, `jar x`, `pax -r`, `unsquashfs`, `dpkg-deb -x`, `gem unpack`, `ditto`: smaller archivers. */
function otherArchiveReaches(cmd: SimpleCommand): RunTimeReach[] | null {
  const argv = cmd.argv;
  const why = `${cmd.name} writes the archive's files`;
  const valueOf = (names: string[]): { value: string; index: number } | null => {
    for (let i = 1; i < argv.length; i++) {
      const a = argv[i] as string;
      for (const n of names) {
        if (a === n && argv[i + 1] !== undefined) return { value: argv[i + 1] as string, index: i + 1 };
        if (n.startsWith('--') && a.startsWith(`${n}=`)) return { value: a.slice(n.length + 1), index: i };
      }
    }
    return null;
  };
  const dirOr = (names: string[], fallback: string): RunTimeReach[] => {
    const v = valueOf(names);
    return [v === null ? below(fallback, -1, why) : below(v.value, v.index, why)];
  };
  switch (cmd.name) {
    case 'ar':
      return /^-?[a-zA-Z]*x/.test(argv[1] ?? '') ? dirOr(['--output'], '.') : [];
    case 'jar':
      return /^-?[a-zA-Z]*x/.test(argv[1] ?? '') || argv.includes('--extract') ? dirOr(['--dir', '-C'], '.') : [];
    case 'pax':
      return argv.some((a) => /^-[a-zA-Z]*r/.test(a)) ? [ANYWHERE(`${why} where the archive says`)] : [];
    case 'unsquashfs':
      return argv.some((a) => a === '-l' || a === '-ls' || a === '-lls' || a === '-s')
        ? []
        : dirOr(['-d', '-dest'], 'squashfs-root');
    case 'dpkg-deb':
    case 'dpkg': {
      const i = argv.findIndex((a) => /^(-x|-X|-R|--extract|--vextract|--raw-extract)$/.test(a));
      const dest = i < 0 ? undefined : argv[i + 2];
      return i < 0 ? [] : [dest === undefined ? below('.', -1, why) : below(dest, i + 2, why)];
    }
    case 'gem':
      return argv[1] === 'unpack' ? dirOr(['--target'], '.') : null;
    case 'ditto': {
      const ops = argv.map((value, index) => ({ value, index })).filter((o) => o.index > 0 && !o.value.startsWith('-'));
      const dest = ops[ops.length - 1];
      return ops.length >= 2 && dest !== undefined ? [below(dest.value, dest.index, 'ditto copies a folder')] : [];
    }
    default:
      return null;
  }
}

/** The reaches of an archiver, or null for a program that is not one. */
export function archiveReaches(cmd: SimpleCommand): RunTimeReach[] | null {
  switch (cmd.name) {
    case 'tar':
    case 'bsdtar':
    case 'gtar':
      return tarReaches(cmd);
    case 'unzip':
      return unzipReaches(cmd);
    case '7z':
    case '7za':
    case '7zr':
    case '7zz':
      return sevenZipReaches(cmd);
    case 'unrar':
    case 'rar':
      return rarReaches(cmd);
    case 'cpio':
      return cpioReaches(cmd);
    default:
      return otherArchiveReaches(cmd);
  }
}
