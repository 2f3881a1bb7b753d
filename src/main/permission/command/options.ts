/**
 * A small getopt for the commands whose path arguments we must find. Unknown options are taken as flags
 * without a value: at worst an option's value is then reported as a path too, which only makes the engine
 * stricter. Only options listed as taking a value consume the next word.
 */
export interface OptionSpec {
  /** Short options that take a value (`-n 5`, `-n5`). */
  shortArg?: string;
  /** Long options that take a value (`--lines 5`, `--lines=5`). */
  longArg?: string[];
  /** Short options that make the command not read-only (they write or run programs). */
  unsafeShort?: string;
  /** Long options (and their unambiguous abbreviations) that make the command not read-only. */
  unsafeLong?: string[];
  /** Options whose value is a file the command reads (`grep -f FILE`). */
  fileShort?: string;
  fileLong?: string[];
  /** Options whose presence means no leading pattern/script operand (`grep -e PAT`). */
  patternShort?: string;
  patternLong?: string[];
  /** Numeric options like `head -20`. */
  numeric?: boolean;
}

export interface ParsedOptions {
  operands: { value: string; index: number }[];
  /** Values of file options (`grep -f FILE`). */
  files: { value: string; index: number }[];
  unsafe: boolean;
  /** A pattern/script was given by option, so operands are all paths. */
  patternByOption: boolean;
  flags: string[];
}

function longMatches(name: string, list: string[] | undefined): boolean {
  if (list === undefined) return false;
  return list.some((full) => full === name || (name.length >= 4 && full.startsWith(name)));
}

export function parseOptions(argv: string[], spec: OptionSpec, start = 1): ParsedOptions {
  const out: ParsedOptions = { operands: [], files: [], unsafe: false, patternByOption: false, flags: [] };
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
      if (longMatches(name, spec.unsafeLong)) out.unsafe = true;
      if (longMatches(name, spec.patternLong)) out.patternByOption = true;
      const takes = spec.longArg?.includes(name) === true;
      const value = eq >= 0 ? a.slice(eq + 1) : takes ? argv[i + 1] : undefined;
      if (takes && eq < 0) i++;
      if (value !== undefined && spec.fileLong?.includes(name) === true) out.files.push({ value, index: i });
      continue;
    }
    if (spec.numeric === true && /^-\d+$/.test(a)) continue;
    for (let j = 1; j < a.length; j++) {
      const ch = a[j] as string;
      if (spec.unsafeShort?.includes(ch)) out.unsafe = true;
      if (spec.patternShort?.includes(ch)) out.patternByOption = true;
      if (spec.shortArg?.includes(ch)) {
        const attached = a.slice(j + 1);
        const value = attached.length > 0 ? attached : argv[i + 1];
        if (attached.length === 0) i++;
        if (value !== undefined && spec.fileShort?.includes(ch)) out.files.push({ value, index: i });
        break;
      }
    }
  }
  return out;
}
