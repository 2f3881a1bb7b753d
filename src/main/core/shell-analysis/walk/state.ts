import type { Cwd, ReadTarget, SimpleCommand, WriteTarget } from '../types';

/** What one descriptor of a command reads, as far as the analyser can tell. */
export type Stream =
  | { kind: 'none' } // inherited from the tool: nothing the command line provides
  // a heredoc, here-string or `echo '...' |` whose text is known; `written`: the text is written in the command;
  // `piped`: another program's output (`echo ... |`), as the analyser emulates it: literal data, never a program's
  // literal code (contract "Shells fed from elsewhere")
  | { kind: 'literal'; text: string; piped?: true; written?: 'heredoc' | 'herestring' }
  | { kind: 'file' } // `< FILE`: a file's contents
  | { kind: 'unknown' }; // output of another program, or text with expansions

/**
 * A command's standard input, and the other descriptors its redirections bound (`3<<'EOF'`, `4< file`): what a
 * program opening `/dev/fd/N` reads (descriptors.ts). A descriptor not in `fds` is unknown.
 */
export type Stdin = Stream & { fds?: ReadonlyMap<number, Stream> };

export const NO_STDIN: Stdin = { kind: 'none' };
export const UNKNOWN_STDIN: Stdin = { kind: 'unknown' };

/** Everything one analysis collects, shared by the nested walks of `bash -c`, `eval`, heredocs... */
export interface AnalysisState {
  commands: SimpleCommand[];
  writes: WriteTarget[];
  reads: ReadTarget[];
  reasons: string[];
  forkBomb: string | null;
  changesDirectory: boolean;
  /** A PATH-like variable was changed or a file sourced: later commands may not be what their names say. */
  environmentAltered: boolean;
  /** A variable outside the inert table was exported: later commands are not read-only. */
  environmentSet: boolean;
  /** `set -a`: every later assignment is exported. */
  allexport: boolean;
  /** `hash -p PATH NAME`: NAME runs PATH from here on. */
  hashed: Map<string, string>;
  /** The working directory after the `cd`s seen so far ('' = the project root, null = unknown). */
  cwd: Cwd;
  /** Variables known to hold a plain integer at this point (arithmetic on them runs no code). */
  integers: Set<string>;
  /** Variables assigned inside a function body: any later call may change them. */
  volatile: Set<string>;
  /** Variables declared associative (`declare -A`): their subscripts are strings, not arithmetic. */
  associative: Set<string>;
  /** CDPATH was set: a relative `cd` may go anywhere. */
  cdpathSet: boolean;
  /** PWD was assigned: `$PWD` and `~+` no longer name the working directory. */
  pwdAssigned: boolean;
  /** Variables the script assigned something other than a plain integer: their values may hold glob characters. */
  dataVariables: Set<string>;
  /** The positional parameters were set (`set --`, a function call): `$1`, `$@` hold the script's values. */
  positionalSet: boolean;
}

export function newState(): AnalysisState {
  return {
    commands: [],
    writes: [],
    reads: [],
    reasons: [],
    forkBomb: null,
    changesDirectory: false,
    environmentAltered: false,
    environmentSet: false,
    allexport: false,
    hashed: new Map(),
    cwd: '',
    integers: new Set(),
    volatile: new Set(),
    associative: new Set(),
    cdpathSet: false,
    dataVariables: new Set(),
    positionalSet: false,
    pwdAssigned: false,
  };
}

/** What the per-program handlers (shells, eval, find -exec, tee...) may ask of the walker. */
export interface WalkerApi {
  readonly state: AnalysisState;
  unreadable(reason: string): void;
  /**
   * Parses and analyses `text` as a nested script: in a child shell (`bash -c`, a heredoc fed to `sh`: its `cd`s and
   * variables do not come back) or in this shell (`eval`, `trap` code).
   */
  nestedSource(text: string, stdin: Stdin, where: 'child' | 'here'): void;
  /** Analyses an argv that another program runs (`find -exec CMD ;`), wrappers and all. */
  emitArgv(words: string[], dynamic: boolean[], text: string, stdin: Stdin): void;
  /** Records an assignment to a variable by a builtin (`read x`, `printf -v x`): integer or arbitrary data. */
  assigned(name: string, value: 'integer' | 'data'): void;
  /** Checks an arithmetic expression given as text (`let 'x=y+1'`, a subscript `a[i]`). */
  arithmeticText(text: string, what: string): void;
}
