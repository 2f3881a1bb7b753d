import type { FsView } from '../paths/fs-view';
import type { PathSystem } from '../../../shared/node/platform-path';

/**
 * Where a command runs, as written: '' (or absent) the project root, a path relative to it, an absolute or `~/...`
 * path; null when it cannot be known (`cd "$X"`, `popd`); `{ under: DIR }` when it is some folder in or beside DIR
 * that only the run decides (`find DIR -execdir CMD`): unknown, with DIR as the best guess for the hard checks.
 */
export type Cwd = string | null | { under: string };

/**
 * What the shell analyser tells the permission engine about one `run_command` string. Produced from a real bash
 * grammar (web-tree-sitter + tree-sitter-bash); the engine never matches raw command strings.
 */

/** One simple command, wherever it appeared (list, pipeline, subshell, substitution, `bash -c`, heredoc...). */
export interface SimpleCommand {
  /** The source text of this simple command, as written. */
  text: string;
  /**
   * The words as the shell would pass them, quotes and escapes removed, wrappers (`env`, `command`, `nice`,
   * `timeout`, `xargs`, ...) and leading assignments stripped: argv[0] is the program that really runs.
   */
  argv: string[];
  /** argv[0] reduced to its base name (`/bin/rm` -> `rm`). Empty only when argv is empty. */
  name: string;
  /** The words as written (quotes removed) before wrappers were stripped: what rules match against. */
  words: string[];
  /** Assignments for this command's environment (leading `NAME=value` words, and those `env` takes), set aside for matching. */
  assignments: string[];
  /**
   * Parallel to `argv`: true where the shell would expand the word at run time (a `$VAR`, `${..}`, `$(..)`,
   * backtick, `$((..))`, `<(..)`, an unquoted glob `* ? [`, or `~user`), so its text as written is not what the
   * program receives. Such a word cannot be confined to the project by its text.
   */
  argvDynamic?: boolean[];
  /**
   * True when PATH, LD_PRELOAD, BASH_ENV, GIT_* or a similar variable was changed for this command (leading
   * assignment, `env X=..`) or before it (`export PATH=.`, `source file`): the program that runs, or what it
   * loads, may not be what `name` says. Such a command is never in the read-only set.
   */
  environmentAltered?: boolean;
  /**
   * True when a variable outside the inert table (locale, time zone, colour, CI) was given to this command or
   * exported before it: what it does may depend on it, so it is never in the read-only set.
   */
  environmentSet?: boolean;
  /**
   * True when the program gets more arguments from its input at run time (`... | xargs cat`): its argument list,
   * and so the files it touches, are not all in the text. Such a command is never in the read-only set.
   */
  argsFromInput?: boolean;
  /** With argsFromInput: the input was literal text, and its items are already in argv (`echo a b | xargs rm`). */
  inputArgsKnown?: boolean;
  /**
   * True when the program only runs bash code the analyser has already read as separate commands (`bash -c
   * 'ls'`, `eval 'ls'`): it is as read-only as that code.
   */
  runsAnalysedCode?: boolean;
  /**
   * Where the command runs when a `cd`/`pushd` came before it: the directory as written (relative to the project
   * root, or absolute, or `~/...`), or null when it went somewhere that cannot be known (`cd "$X"`, `cd -`,
   * `popd`). Absent: the project root. Relative paths of this command are relative to it. A working-directory
   * option moves it too (`env -C DIR`, `git -C DIR`, `make -C DIR`: contract "Assurance: Working-directory options").
   */
  cwd?: Cwd;
  /**
   * A program outside the read-only set that runs this one (`taskset 1 ls`, `flock f ls`, `chrt 5 ls`): the rules
   * and the deny list see the program that runs, but the command is never read-only.
   */
  runner?: string;
}

/**
 * A file the command writes through a redirection (`>`, `>>`, `&>`, `>|`) or `tee FILE`. `/dev/null`,
 * `/dev/stdout` and `/dev/stderr` are reported like any other target: the engine treats them as free.
 */
export interface WriteTarget {
  /** The target path as written, quotes removed. */
  path: string;
  /** `>`, `>>`, `&>`, `tee`, ... */
  via: string;
  /** True when the path contains an expansion, substitution or glob: where it lands cannot be known statically. */
  dynamic?: boolean;
  /** As `SimpleCommand.cwd`: where a relative path is relative to, when a `cd` came before. */
  cwd?: Cwd;
}

/** A file the command reads through an input redirection (`< FILE`, `<> FILE`, `<& FILE`). */
export interface ReadTarget {
  /** The source path as written, quotes removed. */
  path: string;
  /** `<`, `<>`, `0<`, ... */
  via: string;
  /** True when the path contains an expansion, substitution or glob. */
  dynamic?: boolean;
  /** As `SimpleCommand.cwd`. */
  cwd?: Cwd;
}

export interface CommandAnalysis {
  /** False when the engine cannot know what runs (computed command name, eval/sh -c of non-literal, syntax error, unknown node). */
  readable: boolean;
  /** Why it is unreadable, in plain words (empty when readable). */
  unreadableReasons: string[];
  /** Every simple command found, flattened, outermost first. */
  commands: SimpleCommand[];
  /** Every file written by redirection or tee. */
  writes: WriteTarget[];
  /** Every file read by an input redirection (`cat < .env`): judge it with Read rules. Always set by analyzeCommand. */
  reads?: ReadTarget[];
  /** The reason when a fork bomb was found (a function calling itself in a pipeline or in the background), else null. */
  forkBomb?: string | null;
  /**
   * True when some part changes the working directory (`cd`, `pushd`, `popd`, `env -C`): relative paths of the
   * commands after it are no longer relative to the project root.
   */
  changesDirectory?: boolean;
}

/** What the hard deny list and path checks need to know about where the command runs. */
export interface CommandContext {
  /** Real path of the project root (the command's working directory). */
  projectRoot: string;
  /** The user's home directory. */
  home: string;
  /** How the disk is looked at (globs, symlinks: see fs-view.ts). */
  fs: FsView;
  /** How paths are spelled and compared (platform-path.ts); this machine's when absent. */
  sys?: PathSystem;
}
