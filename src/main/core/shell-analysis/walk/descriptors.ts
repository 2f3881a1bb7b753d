import path from 'node:path';
import type { Stdin, Stream } from './state';
import type { SyntaxNode as Node } from '../parse/syntax-node';
import type { Cwd } from '../types';

/**
 * The descriptors a command's redirections bind (`3<<'EOF'`, `4< file`, `0<&3`), and what a program reads when it
 * opens a path that names one of them (`/dev/stdin`, `/dev/fd/3`). Contract "Assurance: Programs reading their
 * program from a stream": such a program runs code the text shows only when the descriptor holds literal text.
 */

const UNKNOWN: Stream = { kind: 'unknown' };
const FILE: Stream = { kind: 'file' };

/** The stream of standard input itself (without the other descriptors). */
function own(stdin: Stdin): Stream {
  if (stdin.kind !== 'literal') return { kind: stdin.kind };
  return stdin.piped === true
    ? { kind: 'literal', text: stdin.text, piped: true }
    : { kind: 'literal', text: stdin.text };
}

/** What descriptor `fd` reads: standard input, a descriptor a redirection bound, or unknown. */
export function descriptorStream(stdin: Stdin, fd: number): Stream {
  return fd === 0 ? own(stdin) : (stdin.fds?.get(fd) ?? UNKNOWN);
}

/** `stdin` with descriptor `fd` bound to `stream` (undefined: closed, or nothing known). */
function bind(stdin: Stdin, fd: number, stream: Stream | undefined): Stdin {
  if (fd === 0) {
    const next: Stream = stream ?? UNKNOWN;
    return stdin.fds === undefined ? next : { ...next, fds: stdin.fds };
  }
  const fds = new Map(stdin.fds ?? []);
  if (stream === undefined) fds.delete(fd);
  else fds.set(fd, stream);
  return { ...own(stdin), fds };
}

/** The redirection's operator (`<`, `>&`, `<<`...), or null. */
function operatorOf(r: Node): string | null {
  for (const c of r.children) if (!c.isNamed && /^[<>&|-]+$/.test(c.type)) return c.type;
  return null;
}

/** The descriptor a redirection names (`3<`), or the default for its direction. */
function descriptorOf(r: Node, fallback: number): number {
  const text = r.childForFieldName('descriptor')?.text;
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : fallback;
}

/**
 * Applies one redirection to the descriptors of a command, in order as bash does. `content` is what a heredoc or
 * here-string feeds (heredocLiteral, herestring: already evaluated once by the caller).
 */
export function bindRedirect(stdin: Stdin, r: Node, content?: Stream): Stdin {
  if (r.type === 'heredoc_redirect' || r.type === 'herestring_redirect') {
    return bind(stdin, descriptorOf(r, 0), content ?? UNKNOWN);
  }
  if (r.type !== 'file_redirect') return stdin;
  const op = operatorOf(r);
  const destinations = r.childrenForFieldName('destination');
  const target = destinations.length === 1 ? destinations[0] : undefined;
  const literalTarget = target !== undefined && (target.type === 'word' || target.type === 'number');
  const text = literalTarget ? target.text : null;
  switch (op) {
    case '<':
    case '<>':
      // `3< <(cmd)`: another program's output
      return bind(stdin, descriptorOf(r, 0), target?.type === 'process_substitution' ? UNKNOWN : FILE);
    case '>':
    case '>>':
    case '>|':
      // reading /dev/fd/N opens the same file again (Linux): its contents
      return bind(stdin, descriptorOf(r, 1), FILE);
    case '&>':
    case '&>>':
      return bind(bind(stdin, 1, FILE), 2, FILE);
    case '<&':
    case '>&': {
      const fd = descriptorOf(r, op === '<&' ? 0 : 1);
      if (text === '-') return bind(stdin, fd, undefined);
      if (text !== null && /^\d+-?$/.test(text)) {
        const from = Number(text.replace(/-$/, ''));
        const copied = bind(stdin, fd, descriptorStream(stdin, from));
        return text.endsWith('-') ? bind(copied, from, undefined) : copied; // `N<&M-` moves M to N
      }
      // `>& file` writes stdout and stderr to a file; anything computed is unknown
      return op === '>&' && text !== null ? bind(bind(stdin, 1, FILE), 2, FILE) : bind(stdin, fd, undefined);
    }
    case '<&-':
    case '>&-':
      return bind(stdin, descriptorOf(r, op === '<&-' ? 0 : 1), undefined);
    default:
      return stdin;
  }
}

/** A here-document and the redirections written after its start (`3<<'EOF' 4<&3`), in order. */
export function bindHeredoc(stdin: Stdin, r: Node, content: Stream): Stdin {
  let out = bindRedirect(stdin, r, content);
  r.children.forEach((c, i) => {
    if (r.fieldNameForChild(i) === 'redirect') out = bindRedirect(out, c);
  });
  return out;
}

/**
 * Standard input for statements that share it one after another (a group, a list): the first may consume any part
 * of it, so what the others read is unknown. A single statement reads it all, descriptors included.
 */
export function sharedInput(stdin: Stdin, statements: number): Stdin {
  if (statements <= 1) return stdin;
  return stdin.kind === 'none' ? { kind: 'none' } : UNKNOWN;
}

/** `/dev/stdin`, `/dev/fd/N`: the descriptor a path names when a program opens it. */
const DESCRIPTOR_PATH = /^\/dev\/(?:(stdin)|(stdout)|(stderr)|fd\/(\d+))$/;
/** Terminals and the kernel's process views: a stream the command text does not feed. */
const OTHER_STREAM = /^\/(proc|dev\/(tty|pts|console|ptmx|tcp|udp))(\/|$)|^\/dev\/tty/;
/** With the working directory unknown, a relative name that may be a descriptor (`cd /dev && cat stdin`). */
const MAYBE_DESCRIPTOR = /(^|\/)(stdin|fd\/\d+|self\/fd\/\d+)$/;

/**
 * What a program that opens `p` reads, when `p` is not a plain file: the stream of a descriptor of this command
 * (`/dev/stdin`, `/dev/fd/3`, `/dev/./fd//3`), or unknown for any other stream. Null: a file.
 *
 * Any path under `/proc` is a stream of unknown origin, even `/proc/self/fd/0` with a literal here-string: /proc is
 * the kernel's view of processes, which the analyser does not model (`self` is whoever opens the path, `/proc/123`
 * another process, a sandbox mounts its own). Only the names bash itself gives a meaning to, `/dev/stdin` and
 * `/dev/fd/N`, are followed to the descriptor the command line binds (contract "Assurance: Programs reading their
 * program from a stream").
 */
export function pathStream(p: string, stdin: Stdin, cwd: Cwd | undefined): Stream | null {
  let full = p;
  if (!p.startsWith('/')) {
    if (typeof cwd === 'string' && cwd.startsWith('/')) full = path.posix.join(cwd, p);
    else if (cwd === null || typeof cwd === 'object') return MAYBE_DESCRIPTOR.test(p) ? UNKNOWN : null;
    else return null;
  }
  const n = path.posix.normalize(full).replace(/^\/+/, '/');
  const m = DESCRIPTOR_PATH.exec(n);
  if (m !== null) {
    const fd = m[1] !== undefined ? 0 : m[2] !== undefined ? 1 : m[3] !== undefined ? 2 : Number(m[4]);
    return descriptorStream(stdin, fd);
  }
  return OTHER_STREAM.test(n) ? UNKNOWN : null;
}
