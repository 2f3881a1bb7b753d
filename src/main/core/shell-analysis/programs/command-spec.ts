import { options, type OptionSpec } from './options';

export type Operand = { value: string; index: number };

/**
 * The path words of a read-only command, and the argument positions where one word may become several
 * (`variadic`): pathname expansion turns `*` into as many words as it matches, so only where every following
 * operand means the same thing (`ls A B...`, `grep PATTERN FILE...`, `echo TEXT...`) can a glob stand.
 */
export interface TablePaths {
  paths: Operand[];
  variadic: Set<number>;
}

/** How one program of the read-only and reader tables takes its options and operands. */
export interface CommandSpec {
  options: OptionSpec;
  /**
   * `paths`: every operand is a path; `none`: operands are not paths (echo's text); `pattern-then-paths`: the
   * first operand is a pattern unless given by option (grep); `script-then-paths`: the same for a program
   * (sed, awk, jq); `all-but-last`: the last operand is a destination (cp); `first`: only the first operand
   * (source FILE ARGS...); `after-first`: the first operand is not a path (chmod MODE FILE...).
   */
  operands: 'paths' | 'none' | 'pattern-then-paths' | 'script-then-paths' | 'all-but-last' | 'first' | 'after-first';
  /** More operands than this is not read-only (`uniq IN OUT` writes OUT). */
  maxOperands?: number;
  /** The command is read-only only with exactly these words as arguments (`node --version`). */
  onlyFlags?: string[];
  /** With onlyFlags: also read-only with no arguments at all. */
  bare?: boolean;
  /** An argument matching this must be present (`sed -n`). */
  requireFlag?: RegExp;
  /** Any argument matching this makes it not read-only (`less +!cmd`, `strings @file`). */
  unsafeWord?: RegExp;
  /** Options are not parsed at all: every word is an operand (`echo -x` prints `-x`). */
  noOptions?: boolean;
  /** A `test` expression: its operands are the words that are not operators. */
  expression?: boolean;
}

/**
 * A spec from an option list (options.ts syntax). The list is parsed when a command first asks for its options: the
 * tables hold some two hundred programs, and a one-shot `permissions check` looks at one or two of them.
 */
export const spec = (opts: string, rest: Omit<CommandSpec, 'options'>, numeric = false): CommandSpec => {
  const parsed = lazyOptions(opts, numeric);
  return {
    get options(): OptionSpec {
      return parsed();
    },
    ...rest,
  };
};

/** An option list (options.ts syntax) parsed when first asked for, once. */
export function lazyOptions(opts: string, numeric = false): () => OptionSpec {
  let parsed: OptionSpec | null = null;
  return () => (parsed ??= options(opts, numeric));
}
export const NONE_OPTS = options('');
/** Only `--help` and `--version`, every operand a path. */
export const PATHS_ONLY = spec('--help --version', { operands: 'paths' });
