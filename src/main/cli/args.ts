import { parseArgs, type ParseArgsConfig } from 'node:util';
import { closest } from '../../shared/closest';
import { UsageError } from './command';

type Options = NonNullable<ParseArgsConfig['options']>;
type Token =
  | { kind: 'option'; name: string; rawName: string; value?: string; inlineValue?: boolean }
  | { kind: 'positional'; value: string }
  | { kind: 'option-terminator' };

/** "did you mean --project?" for a mistyped flag, or nothing. */
function flagHint(rawName: string, options: Options): string {
  if (!rawName.startsWith('--')) return '';
  const near = closest(rawName.slice(2), Object.keys(options));
  return near ? ` (did you mean --${near}?)` : '';
}

/** The first token that strict parsing refuses, said plainly (node's messages name no alternative). */
function explain(tokens: readonly Token[], options: Options): string | null {
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

/**
 * A subcommand's flags, parsed by `node:util` `parseArgs` in strict mode: only the listed options, values for
 * string options, `--` ends the options (what follows is positional, even `--help`). A bad argument is a
 * UsageError (exit 2) that names the flag and, for a mistyped one, the nearest known flag. A flag that is not
 * `multiple` may be given once.
 */
export function parseCommandArgs<const O extends Options>(args: readonly string[], options: O) {
  const config = { args: [...args], options, strict: true, allowPositionals: true, tokens: true } as const;
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
    if (t.kind !== 'option' || options[t.name]?.multiple) continue;
    if (seen.has(t.name)) throw new UsageError(`--${t.name} given more than once`);
    seen.add(t.name);
  }
  return { values: parsed.values, positionals: parsed.positionals };
}

/** A UsageError for a word that is not one of `choices`, with the nearest one suggested. */
export function unknownChoice(what: string, word: string | undefined, choices: readonly string[]): UsageError {
  if (word === undefined || word === '') return new UsageError(`missing ${what} (${choices.join(', ')})`);
  const near = closest(word, choices);
  return new UsageError(`unknown ${what} "${word}"${near ? ` (did you mean "${near}"?)` : ` (${choices.join(', ')})`}`);
}

/** The arguments before `--`: where `--help` is looked for (after `--` it is a value). */
export function beforeTerminator(args: readonly string[]): readonly string[] {
  const end = args.indexOf('--');
  return end === -1 ? args : args.slice(0, end);
}
