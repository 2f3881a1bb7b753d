/**
 * Reading `strace -ff -y` output for the read-only differential test: which programs ran, which files were opened
 * (and how), and which calls tried to change the file system.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Calls traced: program starts, opens, and every call that changes a name or a file's metadata. */
export const TRACED_CALLS = [
  'execve',
  'execveat',
  'open',
  'openat',
  'openat2',
  'creat',
  'rename',
  'renameat',
  'renameat2',
  'unlink',
  'unlinkat',
  'mkdir',
  'mkdirat',
  'rmdir',
  'link',
  'linkat',
  'symlink',
  'symlinkat',
  'truncate',
  'chmod',
  'fchmodat',
  'chown',
  'lchown',
  'fchownat',
  'mknod',
  'mknodat',
  'utime',
  'utimes',
  'utimensat',
  'futimesat',
  'setxattr',
  'lsetxattr',
  'removexattr',
  'lremovexattr',
  'mount',
  'bind',
  'connect',
];
const MUTATING = new Set(
  TRACED_CALLS.filter(
    (c) => !['execve', 'execveat', 'open', 'openat', 'openat2', 'creat', 'connect', 'bind'].includes(c),
  ),
);

export type TraceEvent =
  | { kind: 'exec'; file: string; ok: boolean; line: string }
  | {
      kind: 'open';
      requested: string;
      real: string | null;
      write: boolean;
      handleOnly: boolean;
      noFollow: boolean;
      line: string;
    }
  | { kind: 'change'; line: string }
  | { kind: 'socket'; line: string };

/** Splits a call's argument text at top-level commas (quotes, brackets and `<...>` fd paths kept whole). */
function splitArgs(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quoted = false;
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      current += c;
      if (c === '\\') current += text[++i] ?? '';
      else if (c === '"') quoted = false;
      continue;
    }
    if (c === '"') quoted = true;
    else if ('[{<('.includes(c)) depth++;
    else if (']}>)'.includes(c)) depth--;
    else if (c === ',' && depth === 0) {
      out.push(current.trim());
      current = '';
      continue;
    }
    current += c;
  }
  if (current.trim() !== '') out.push(current.trim());
  return out;
}

/** The text of a strace string literal (`"a\"b\n"`, octal and hex escapes); null when `arg` is not one. */
export function unquote(arg: string): string | null {
  const m = /^"((?:[^"\\]|\\.)*)"(\.\.\.)?$/s.exec(arg);
  if (m === null) return null;
  const bytes: number[] = [];
  const s = m[1] as string;
  const simple: Record<string, number> = { n: 10, t: 9, r: 13, v: 11, f: 12, '"': 34, '\\': 92 };
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    if (c !== '\\') {
      bytes.push(...Buffer.from(c, 'utf8'));
      continue;
    }
    const e = s[++i] as string;
    if (e in simple) bytes.push(simple[e] as number);
    else if (e === 'x') {
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else if (/[0-7]/.test(e)) {
      const oct = /^[0-7]{1,3}/.exec(s.slice(i))?.[0] ?? e;
      bytes.push(parseInt(oct, 8));
      i += oct.length - 1;
    } else bytes.push(...Buffer.from(e, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** `AT_FDCWD</dir>` or `3</dir>` (strace -y): the folder, or null. */
function fdPath(arg: string): string | null {
  return /^[\w-]+<(.*)>$/s.exec(arg)?.[1] ?? null;
}

/** Reads every `PREFIX.PID` file strace -ff wrote, the first process's first (its first event is the traced program's start). */
export function readTrace(dir: string, prefix: string): TraceEvent[] {
  const events: TraceEvent[] = [];
  const pid = (n: string): number => Number(n.slice(prefix.length + 1));
  for (const name of fs
    .readdirSync(dir)
    .filter((n) => n.startsWith(`${prefix}.`))
    .sort((a, b) => pid(a) - pid(b))) {
    let cwd: string | null = null;
    for (const line of fs.readFileSync(path.join(dir, name), 'utf8').split('\n')) {
      const m = /^(\w+)\((.*)\)\s+=\s+(.*)$/s.exec(line);
      if (m === null) continue;
      const [, call = '', argText = '', ret = ''] = m;
      const args = splitArgs(argText);
      const ok = !ret.startsWith('-1');
      if (call === 'execve' || call === 'execveat') {
        const file = unquote(args[call === 'execve' ? 0 : 1] ?? '') ?? '';
        events.push({ kind: 'exec', file, ok, line });
        continue;
      }
      if (call === 'open' || call === 'openat' || call === 'openat2' || call === 'creat') {
        const at = call === 'openat' || call === 'openat2' ? fdPath(args[0] ?? '') : null;
        if (at !== null && (args[0] ?? '').startsWith('AT_FDCWD')) cwd = at;
        const requested = unquote(args[at === null && call !== 'openat' && call !== 'openat2' ? 0 : 1] ?? '') ?? '';
        const flags = call === 'creat' ? 'O_CREAT' : call === 'open' ? (args[1] ?? '') : (args[2] ?? '');
        const base = at ?? cwd ?? '/';
        events.push({
          kind: 'open',
          requested: path.resolve(base, requested),
          real: ok ? (/^\d+<(.*)>/s.exec(ret)?.[1] ?? null) : null,
          write: /O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_TMPFILE/.test(flags),
          handleOnly: /O_PATH/.test(flags), // a handle for *at() calls: reads no content
          noFollow: /O_NOFOLLOW/.test(flags),
          line,
        });
        continue;
      }
      if (call === 'connect' || call === 'bind') events.push({ kind: 'socket', line });
      else if (MUTATING.has(call)) events.push({ kind: 'change', line });
    }
  }
  return events;
}

/** Where `p` really lands: the longest existing prefix resolved through symbolic links, the rest appended. */
export function landing(p: string): string {
  const missing: string[] = [];
  let current = path.resolve(p);
  for (;;) {
    try {
      return path.join(fs.realpathSync(current), ...missing.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return p;
      missing.push(path.basename(current));
      current = parent;
    }
  }
}
