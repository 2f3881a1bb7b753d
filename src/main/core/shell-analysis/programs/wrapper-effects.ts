import { programDirectories } from './directory-options';
import type { Stdin, WalkerApi } from '../walk/state';
import type { Cwd, SimpleCommand } from '../types';
import { joinDirectory } from '../walk/working-directory';
import type { DirectoryChange, Unwrapped } from './wrappers';

/**
 * What wrappers and working-directory options do besides running the program (contract "Assurance:
 * Working-directory options move the judged folder", "Options that take a command"): the files a wrapper creates
 * are writes, the shell code it runs (`flock FILE -c CODE`) is analysed, and the program runs in the directory
 * they move it to (`env -C DIR`, `unshare -w DIR`, `git -C DIR`, `make -C DIR`), so every path it is given, every
 * file it writes and every command it runs is judged from there.
 */

function moved(start: Cwd, moves: DirectoryChange[]): Cwd {
  return moves.reduce<Cwd>((cwd, m) => (m === null ? null : joinDirectory(cwd, m.dir, m.dynamic)), start);
}

/** Runs `run` (which emits the wrapped command) with the working directory the wrappers and options give it. */
export function runWrapped<T>(u: Unwrapped, cmd: SimpleCommand, stdin: Stdin, w: WalkerApi, run: () => T): T {
  const outer = w.state.cwd;
  const at = (depth: number): Cwd => moved(outer, u.directories.slice(0, depth));
  for (const f of u.creates) {
    const cwd = at(f.depth);
    w.state.writes.push({
      path: f.value,
      via: u.runner ?? 'wrapper',
      dynamic: f.dynamic,
      ...(cwd === '' ? {} : { cwd }),
    });
  }
  const own = programDirectories(cmd).map((m) => ({ dir: m.dir, dynamic: cmd.argvDynamic?.[m.index] === true }));
  const moves = [...u.directories, ...own];
  let out: T;
  if (moves.length === 0) out = run();
  else {
    w.state.changesDirectory = true;
    w.state.cwd = moved(outer, moves);
    try {
      out = run();
    } finally {
      w.state.cwd = outer;
    }
  }
  // the code a wrapper runs itself (`flock FILE -c CODE`), after the wrapper in the list: outermost first
  for (const c of u.code) {
    if (c.dynamic) {
      w.unreadable(`${u.runner ?? 'a wrapper'} runs a string that is not literal`);
      continue;
    }
    w.state.cwd = at(c.depth);
    try {
      w.nestedSource(c.value, stdin, 'child');
    } finally {
      w.state.cwd = outer;
    }
  }
  return out;
}
