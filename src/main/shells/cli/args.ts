import { parseArgs } from 'node:util';
import { closest } from '../../../shared/closest';
import type { OptionSpec, OptionSpecs } from './command';
import { UsageError } from './command';

type Token =
  | { kind: 'option'; name: string; rawName: string; value?: string; inlineValue?: boolean }
  | { kind: 'positional'; value: string }
  | { kind: 'option-terminator' };

/**
 * The choice a mistyped word most likely meant: the one choice it begins (`dir` for `directory`, `accept` for
 * `acceptEdits`), else the nearest by edit distance (`acceptedits`, `drectory`), else null. Case never matters.
 */
export function closestChoice(word: string, choices: readonly string[]): string | null {
  const lower = word.toLowerCase();
  if (lower.length >= 2) {
    const starts = choices.filter((c) => c.toLowerCase().startsWith(lower));
    if (starts.length === 1) return starts[0]!;
  }
  return closest(word, choices);
}

/** "did you mean --project?" for a mistyped flag, or nothing. */
function flagHint(rawName: string, options: OptionSpecs): string {
  if (!rawName.startsWith('--')) return '';
  const near = closestChoice(rawName.slice(2), Object.keys(options));
  return near ? ` (did you mean --${near}?)` : '';
}

/** The first token that strict parsing refuses, said plainly (node's messages name no alternative). */
function explain(tokens: readonly Token[], options: OptionSpecs): string | null {
  for (const t of tokens) {
    if (t.kind !== 'option') continue;
    const spec = options[t.name];
    if (!spec) {
      const dash = t.rawName.startsWith('--') ? '' : `; a value or prompt that starts with "-" goes after --`;
      return `unknown option ${t.rawName}${flagHint(t.rawName, options)}${dash}`;
    }
    if (spec.type === 'boolean' && t.inlineValue) return `${t.rawName} takes no value`;
    if (spec.type === 'string' && t.value === undefined) return `${t.rawName} needs a value`;
    if (spec.type === 'string' && !t.inlineValue && t.value?.startsWith('-')) {
      return `${t.rawName} needs a value, got the option "${t.value}" (a value that starts with "-" is written ${t.rawName}=${t.value})`;
    }
  }
  return null;
}

/** "a, b or c". */
export function orList(words: readonly string[]): string {
  return words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

/** Refuses a value of an option with choices, naming the choices and the one most likely meant. */
function checkChoice(name: string, spec: OptionSpec, value: string): void {
  const choices = spec.choices;
  if (!choices) return;
  const words = spec.commaList ? value.split(',').map((w) => w.trim()) : [value];
  for (const word of words) {
    if (choices.includes(word)) continue;
    const near = word === '' ? null : closestChoice(word, choices);
    throw new UsageError(
      `--${name} must be ${orList(choices)}, not "${word}"${near ? ` (did you mean "${near}"?)` : ''}`,
    );
  }
}

/** The options of `table` named in `names`, for a form of a command that takes only some of them. */
export function pick<const T extends OptionSpecs, const K extends keyof T>(table: T, ...names: K[]): Pick<T, K> {
  const out: Partial<Pick<T, K>> = {};
  for (const n of names) out[n] = table[n];
  return out as Pick<T, K>;
}

type Values<O extends OptionSpecs> = {
  [K in keyof O]?: O[K]['type'] extends 'boolean'
    ? O[K]['multiple'] extends true
      ? boolean[]
      : boolean
    : O[K]['multiple'] extends true
      ? string[]
      : string;
};

/**
 * A subcommand's flags, parsed by `node:util` `parseArgs` in strict mode: only the listed options, values for
 * string options, `--` ends the options (what follows is positional, even `--help`). A bad argument is a
 * UsageError (exit 2) that names the flag and, for a mistyped one, the nearest known flag; a value outside an
 * option's choices names the choices and the nearest. A flag that is not `multiple` may be given once.
 */
export function parseCommandArgs<const O extends OptionSpecs>(
  args: readonly string[],
  options: O,
): { values: Values<O>; positionals: string[] } {
  const nodeOptions = Object.fromEntries(
    Object.entries(options).map(([name, o]) => [name, { type: o.type, multiple: o.multiple === true }]),
  );
  const config = { args: [...args], options: nodeOptions, strict: true, allowPositionals: true, tokens: true } as const;
  let parsed;
  try {
    parsed = parseArgs(config);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    if (!code.startsWith('ERR_PARSE_ARGS_')) throw err;
    const { tokens } = parseArgs({ ...config, strict: false });
    throw new UsageError(explain(tokens as Token[], options) ?? (err as Error).message);
  }
  const seen = new Set<string>();
  for (const t of parsed.tokens as Token[]) {
    if (t.kind !== 'option') continue;
    const spec = options[t.name]!;
    if (t.value !== undefined) checkChoice(t.name, spec, t.value);
    if (spec.multiple) continue;
    if (seen.has(t.name)) throw new UsageError(`--${t.name} given more than once`);
    seen.add(t.name);
  }
  return { values: parsed.values as Values<O>, positionals: parsed.positionals };
}

/** A UsageError for a word that is not one of `choices`, with the nearest one suggested. */
export function unknownChoice(what: string, word: string | undefined, choices: readonly string[]): UsageError {
  if (word === undefined || word === '') return new UsageError(`missing ${what} (${choices.join(', ')})`);
  const near = closestChoice(word, choices);
  return new UsageError(`unknown ${what} "${word}"${near ? ` (did you mean "${near}"?)` : ` (${choices.join(', ')})`}`);
}

/** The arguments before `--`: where `--help` is looked for (after `--` it is a value). */
export function beforeTerminator(args: readonly string[]): readonly string[] {
  const end = args.indexOf('--');
  return end === -1 ? args : args.slice(0, end);
}
