/**
 * Environment variables are a closed table (contract "Assurance: Environment assignments are closed"). A program
 * reads its environment, and many read code or configuration through it: `RIPGREP_CONFIG_PATH=rg.conf rg` takes
 * `--pre=./x` from the project, `HOME=. bash -l` runs the project's `.bash_profile`, `NODE_OPTIONS=--require=./x`
 * runs `./x` in any node. So a variable given to a command is one of:
 * - `inert`: a short table of names that only choose a language, a time zone, colours (on or off, or the colour
 *   strings of ls and grep), a size or time format or a terminal size, say "this is CI", or pick a build's flavour
 *   or target (`NODE_ENV`, Rust's log and backtrace switches, Go's target OS and architecture, cgo on or off: the
 *   names peers set aside for rule matching too). None of them names a file of code or configuration (a locale or time-zone name with a slash names
 *   data the C library parses, never code). Such an assignment changes nothing the engine judges.
 * - `loads-code`: names that make a program (or the shell) load code or configuration, or decide which program a
 *   name runs. An assignment to one makes the command unreadable (ask in every mode; a deny rule still denies).
 * - `other`: anything else. Unknown, so the command is not read-only (the mode and rules decide).
 */

export type VariableKind = 'inert' | 'other' | 'loads-code';

const INERT =
  /^(LANG|LANGUAGE|LC_[A-Z]+|TZ|NO_COLOR|FORCE_COLOR|CLICOLOR|CLICOLOR_FORCE|COLORTERM|LS_COLORS|LSCOLORS|GREP_COLORS?|GCC_COLORS|TIME_STYLE|BLOCK_SIZE|BLOCKSIZE|TERM|COLUMNS|LINES|CI|NODE_ENV|RUST_BACKTRACE|RUST_LOG|GOOS|GOARCH|CGO_ENABLED)$/;

/**
 * The names the contract lists, and the prefixes of whole families: the shell's own (its startup files, prompts,
 * word splitting, program lookup, imported functions), the dynamic loader's, git's, and those of the interpreters.
 * An assignment to one of these is unreadable even as a plain shell assignment (`HOME=.; bash -lc ls`): the shell
 * reads it itself, or it usually comes from the environment, so assigning it exports it.
 */
const LISTED =
  /^(PATH|IFS|HOME|ENV|BASH_ENV|SHELLOPTS|BASHOPTS|PS[0-4]|PROMPT_COMMAND|ZDOTDIR|FPATH|INPUTRC|EDITOR|VISUAL|PAGER|MANPAGER|SHELL|BROWSER|NODE_OPTIONS|NODE_PATH|NODE_REPL_EXTERNAL_MODULE|RUBYOPT|RUBYLIB|CLASSPATH|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS|(BASH_FUNC_|BASH_|LD_|DYLD_|GIT_|XDG_|PYTHON|PERL|LESS|GEM_|BUNDLE_|OPENSSL_|NPM_CONFIG_|YARN_|PNPM_).*)$/;

/**
 * How other programs name the files and programs they load: a config file or folder, an rc file, a search path, a
 * home folder, extra options, a program to run (editor, pager, shell, command, wrapper, askpass), a startup or
 * init file, plugins or hooks. Exported or given to a command, such a name is unreadable like a listed one; as a plain
 * shell assignment it only reaches programs when it is already in the environment, so what follows is not
 * read-only.
 */
const LOADS_BY_NAME =
  /(CONFIG|CONF$|CONF_|(^|[^S])RC($|_|FILE)|PATH$|HOME$|OPTIONS?$|OPTS?$|EDITOR$|PAGER$|SHELL$|COMMAND$|_CMD$|_PROG(RAM)?$|WRAPPER$|ASKPASS$|STARTUP|INIT$|_PLUGINS?$|_HOOKS?$|^R_(PROFILE|ENVIRON))/;

/** CDPATH only steers `cd`, which the engine follows itself (cdpathSet). */
const OWN_HANDLING = new Set(['CDPATH', 'PWD', 'OLDPWD']);

export function variableKind(name: string): VariableKind {
  if (INERT.test(name)) return 'inert';
  if (OWN_HANDLING.has(name)) return 'other';
  const upper = name.toUpperCase();
  // environment names are upper case by convention; npm and yarn read theirs in any case (`npm_config_*`)
  if (LISTED.test(name) || (name !== upper && /^(NPM_CONFIG_|YARN_)/.test(upper))) return 'loads-code';
  return LOADS_BY_NAME.test(name) ? 'loads-code' : 'other';
}

/** True for the names listed by the contract (and their families): see LISTED. */
export function isListedVariable(name: string): boolean {
  return LISTED.test(name);
}

/** The name assigned by `NAME=value` (or `NAME+=`, `NAME[i]=`), or null. `env` takes any text before `=` as a name. */
export function assignedName(word: string, anyName = false): string | null {
  if (anyName) {
    // `NAME+=x` and `NAME[i]=x` assign NAME (to env they are odd names; judged as NAME, which is stricter)
    const eq = word.indexOf('=');
    return eq > 0
      ? word
          .slice(0, eq)
          .replace(/\+$/, '')
          .replace(/\[[^\]]*\]$/, '') || null
      : null;
  }
  const m = /^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?\+?=/.exec(word);
  return m === null ? null : (m[1] as string);
}
