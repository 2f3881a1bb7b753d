/**
 * A small getopt for the programs whose options the engine must understand. Two uses:
 * - **closed** (the read-only set, contract "Assurance: Options"): every option must be listed as safe for that
 *   program; anything else, including a GNU-style abbreviation of a long option, is reported in `unknown` and the
 *   command is not read-only.
 * - **open** (finding the files a program reads or writes): unknown options are taken as flags without a value, so
 *   at worst an option's value is also reported as a path, which only makes the engine stricter.
 *
 * Specs are written as one string, the way a man page lists options:
 *   `-a` a short flag; `-n=` a short option with a value; `-w?` a short option with an optional attached value; `--all` a long flag; `--width=` a long option with a
 *   value (`--width=80` or `--width 80`); `--color?` a long option whose value is optional (`--color` or
 *   `--color=auto`); a value marked `=file` is a file the program reads (`-f=file`, `--file=file`), `=write` one
 *   it writes (`-o=write`); roles combine (`-f=file+pattern`); a flag marked `!` (`--files!`) means there is no
 *   pattern operand, like `=pattern`; `=pattern`
 *   means the option gives the pattern/script, so every operand is a path (`grep -e PAT`); `=script` is a sed
 *   script given by option (checked like the operand form).
 */
export interface OptionSpec {
  /** Short flags without a value. */
  flags: Set<string>;
  /** Short options that take a value (attached `-n5` or next word). */
  shortArg: Set<string>;
  /** Short options whose value is optional and only ever attached (`od -w16`, `date -Iseconds`). */
  shortOptional: Set<string>;
  /** Long flags without a value. */
  long: Set<string>;
  /** Long options that take a value (`--lines=5`, `--lines 5`). */
  longArg: Set<string>;
  /** Long options whose value is optional and only ever attached (`--color`, `--color=auto`). */
  longOptional: Set<string>;
  /** Options whose value is a file the program reads (`grep -f FILE`), short letters and long names. */
  file: Set<string>;
  /** Options whose value is a file the program writes (`sort -o FILE`). */
  write: Set<string>;
  /** Options whose presence means no leading pattern/script operand (`grep -e PAT`). */
  pattern: Set<string>;
  /** Options whose value is a script to check (`sed -e SCRIPT`). */
  script: Set<string>;
  /** Numeric options like `head -20`. */
  numeric: boolean;
}

export interface ParsedOptions {
  operands: { value: string; index: number }[];
  /** Values of file options (`grep -f FILE`). */
  files: { value: string; index: number }[];
  /** Values of write options (`sort -o FILE`). */
  writes: { value: string; index: number }[];
  /** Values of script options (`sed -e SCRIPT`). */
  scripts: string[];
  /** Option words not in the spec (closed use: the command is not read-only). */
  unknown: string[];
  /** A pattern/script was given by option, so operands are all paths. */
  patternByOption: boolean;
  flags: string[];
  /** Every option seen: short letters (`x`) and long names (`--extract`), listed or not. */
  seen: Set<string>;
  /** The value of every option that has one, by short letter or long name. */
  values: Map<string, { value: string; index: number }[]>;
}

/** Parses the option string described above. */
export function options(text: string, numeric = false): OptionSpec {
  const spec: OptionSpec = {
    flags: new Set(),
    shortArg: new Set(),
    shortOptional: new Set(),
    long: new Set(),
    longArg: new Set(),
    longOptional: new Set(),
    file: new Set(),
    write: new Set(),
    pattern: new Set(),
    script: new Set(),
    numeric,
  };
  for (const token of text.split(/\s+/).filter((t) => t.length > 0)) {
    const m = /^(--?)([^=?!]+)(\?|=|!)?((?:file|write|pattern|script)(?:\+(?:file|write|pattern|script))*)?$/.exec(
      token,
    );
    if (m === null) throw new Error(`bad option spec token: ${token}`);
    const [, dashes, name, kind, roleText] = m as unknown as [
      string,
      string,
      string,
      string | undefined,
      string | undefined,
    ];
    const roles = new Set((roleText ?? '').split('+'));
    const key = dashes === '--' ? `--${name}` : name;
    if (dashes === '-' && name.length !== 1) throw new Error(`bad short option in spec: ${token}`);
    if (kind === undefined || kind === '!') (dashes === '--' ? spec.long : spec.flags).add(key);
    else if (kind === '?') (dashes === '--' ? spec.longOptional : spec.shortOptional).add(key);
    else (dashes === '--' ? spec.longArg : spec.shortArg).add(key);
    if (roles.has('file')) spec.file.add(key);
    if (roles.has('write')) spec.write.add(key);
    if (kind === '!' || roles.has('pattern') || roles.has('script')) spec.pattern.add(key);
    if (roles.has('script')) spec.script.add(key);
  }
  return spec;
}

function noteValue(out: ParsedOptions, spec: OptionSpec, key: string, value: string | undefined, index: number): void {
  if (value === undefined) return;
  const list = out.values.get(key) ?? [];
  list.push({ value, index });
  out.values.set(key, list);
  if (spec.file.has(key)) out.files.push({ value, index });
  if (spec.write.has(key)) out.writes.push({ value, index });
  if (spec.script.has(key)) out.scripts.push(value);
}

/**
 * Splits argv (from `start`) into options and operands per `spec`. In `open` mode unknown options are flags; in
 * closed mode they are also listed in `unknown`.
 */
export function parseOptions(argv: string[], spec: OptionSpec, start = 1): ParsedOptions {
  const out: ParsedOptions = {
    operands: [],
    files: [],
    writes: [],
    scripts: [],
    unknown: [],
    patternByOption: false,
    flags: [],
    seen: new Set(),
    values: new Map(),
  };
  let options = true;
  for (let i = start; i < argv.length; i++) {
    const a = argv[i] as string;
    if (!options || a === '-' || !a.startsWith('-')) {
      out.operands.push({ value: a, index: i });
      continue;
    }
    if (a === '--') {
      options = false;
      continue;
    }
    out.flags.push(a);
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq >= 0 ? a.slice(0, eq) : a;
      out.seen.add(name);
      if (spec.pattern.has(name)) out.patternByOption = true;
      if (spec.longArg.has(name)) {
        const value = eq >= 0 ? a.slice(eq + 1) : argv[i + 1];
        if (eq < 0) i++;
        noteValue(out, spec, name, value, i);
      } else if (spec.longOptional.has(name)) {
        noteValue(out, spec, name, eq >= 0 ? a.slice(eq + 1) : undefined, i);
      } else if (!spec.long.has(name) || eq >= 0) {
        out.unknown.push(a);
      }
      continue;
    }
    if (spec.numeric && /^-\d+$/.test(a)) continue;
    for (let j = 1; j < a.length; j++) {
      const ch = a[j] as string;
      out.seen.add(ch);
      if (spec.pattern.has(ch)) out.patternByOption = true;
      if (spec.shortArg.has(ch)) {
        const attached = a.slice(j + 1);
        const value = attached.length > 0 ? attached : argv[i + 1];
        if (attached.length === 0) i++;
        noteValue(out, spec, ch, value, i);
        break;
      }
      if (spec.shortOptional.has(ch)) {
        noteValue(out, spec, ch, a.slice(j + 1), i);
        break;
      }
      if (!spec.flags.has(ch)) out.unknown.push(`-${ch}`);
    }
  }
  return out;
}
