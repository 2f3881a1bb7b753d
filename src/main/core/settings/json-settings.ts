import { parseTree, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { isMap, isScalar, type Document, type LineCounter } from 'yaml';
import type { SettingsKeyProblem } from './unknown-keys';

/**
 * A settings file whose name ends in `.json` is JSON: it is parsed strictly (as Claude Code and every editor read it)
 * before its content is checked like any settings file (JSON is YAML, so the same checks give line numbers). Its
 * syntax errors are JSON errors, with their line and column.
 */

/** Line and column (1-based) of a character offset. */
function linePos(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: lines[lines.length - 1]!.length + 1 };
}

/** jsonc-parser's error codes (by name), in words. */
const JSON_ERRORS: Readonly<Record<string, string>> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'not a number',
  PropertyNameExpected: 'a property name in double quotes was expected',
  ValueExpected: 'a value was expected (a trailing comma?)',
  ColonExpected: 'a ":" was expected',
  CommaExpected: 'a "," was expected',
  CloseBraceExpected: 'a "}" was expected',
  CloseBracketExpected: 'a "]" was expected',
  EndOfFileExpected: 'nothing may follow the top-level value',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'a comment is not closed (and comments are not allowed in JSON)',
  UnexpectedEndOfString: 'a string is not closed',
  UnexpectedEndOfNumber: 'a number is cut short',
  InvalidUnicode: 'an invalid \\u escape',
  InvalidEscapeCharacter: 'an invalid escape in a string',
  InvalidCharacter: 'a control character in a string',
};

/**
 * Why `text` is not JSON, with the line and column of the first error, or null. `JSON.parse` decides (strict JSON, as
 * Claude Code reads it); jsonc-parser, in its strict settings, says where and what, since V8's message often names
 * no position. Blank text is no error: an empty file is empty settings, as for YAML.
 */
export function jsonSyntaxError(text: string): { line: number | null; column: number | null; reason: string } | null {
  if (!text.trim()) return null;
  try {
    JSON.parse(text);
    return null;
  } catch (err) {
    const errors: ParseError[] = [];
    parseTree(text, errors, { allowTrailingComma: false, disallowComments: true, allowEmptyContent: false });
    const first = errors[0];
    if (first)
      return {
        ...linePos(text, first.offset),
        reason: `not valid JSON: ${JSON_ERRORS[printParseErrorCode(first.error)] ?? printParseErrorCode(first.error)}`,
      };
    const message = err instanceof Error ? err.message : String(err);
    const at = /\bat position (\d+)/.exec(message);
    const reason = `not valid JSON: ${message.replace(/ in JSON at position \d+.*$/, '')}`;
    return at ? { ...linePos(text, Number(at[1])), reason } : { line: null, column: null, reason };
  }
}

/**
 * The blocks Gatehouse reads only from its YAML settings (`sandbox:`, `model:`, `trust:`...): in a `settings.json`
 * each is reported, never silently ignored. What a JSON file does apply: permissions, hooks and MCP servers.
 */
const YAML_ONLY_KEYS = ['trust', 'sandbox', 'model', 'auto', 'ui', 'updates', 'subagents', 'checkpoints', 'network'];

export function yamlOnlyKeyProblems(file: string, doc: Document, counter: LineCounter): SettingsKeyProblem[] {
  const root = doc.contents;
  if (!isMap(root)) return [];
  const yamlFile = file.replace(/\.json$/, '.yaml');
  const problems: SettingsKeyProblem[] = [];
  for (const pair of root.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    if (!YAML_ONLY_KEYS.includes(key)) continue;
    const range = (pair.key as { range?: [number, number, number] } | null)?.range;
    const pos = range ? counter.linePos(range[0]) : null;
    problems.push({
      file,
      line: pos?.line ?? null,
      column: pos?.col ?? null,
      key,
      suggestion: null,
      reason: `"${key}" is not read from a JSON settings file: Gatehouse reads it from ${yamlFile} (move it there)`,
      effect: 'ignored',
    });
  }
  return problems;
}
