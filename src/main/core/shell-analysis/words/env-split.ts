/**
 * `env -S STRING` (GNU coreutils): the string is split into the words of the command env runs. Blanks separate
 * words; single quotes keep text as is (but `\\` and `\'`); double quotes and bare text take backslash escapes;
 * `${NAME}` is replaced by a variable's value (a word the text does not show: dynamic); `#` at the start of a
 * word begins a comment; `\c` ends the string. Anything else is an error, as env itself reports.
 */
export function splitEnvString(text: string): { words: string[]; dynamic: boolean[] } | string {
  const words: string[] = [];
  const dynamic: boolean[] = [];
  let cur = '';
  let inWord = false;
  let dyn = false;
  let quote: "'" | '"' | null = null;
  const end = (): void => {
    if (inWord) {
      words.push(cur);
      dynamic.push(dyn);
    }
    cur = '';
    inWord = false;
    dyn = false;
  };
  const escapes: Record<string, string> = { f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '#': '#', $: '$', _: ' ' };
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quote === "'") {
      if (c === "'") quote = null;
      else if (c === '\\' && (text[i + 1] === '\\' || text[i + 1] === "'")) cur += text[++i];
      else cur += c;
      continue;
    }
    if (c === '\\') {
      const e = text[++i];
      if (e === undefined) return 'a backslash at the end of the string';
      if (e === 'c') {
        if (quote !== null) return '\\c inside quotes';
        break;
      }
      if (e === '_' && quote === null) {
        end();
        continue;
      }
      if (e === '\\' || e === '"' || e === "'") cur += e;
      else if (escapes[e] !== undefined) cur += escapes[e];
      else return `the escape \\${e} is not valid`;
      inWord = true;
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '$') {
        const m = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}/.exec(text.slice(i));
        if (m === null) return 'only ${NAME} is expanded';
        dyn = true;
        i += m[0].length - 1;
      } else cur += c;
      continue;
    }
    if (/\s/.test(c)) {
      end();
      continue;
    }
    if (c === '#' && !inWord) break;
    inWord = true;
    if (c === "'" || c === '"') quote = c;
    else if (c === '$') {
      const m = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}/.exec(text.slice(i));
      if (m === null) return 'only ${NAME} is expanded';
      dyn = true;
      i += m[0].length - 1;
    } else cur += c;
  }
  if (quote !== null) return 'an unterminated quote';
  end();
  return { words, dynamic };
}
