/**
 * Bash rule specifiers (Claude Code compatible), matched against a simple command's words joined by one space:
 *  - `npm run test:*` and `npm run test *`: those words alone or followed by more words (word boundary, so
 *    `npm run testx` and `npm run test:unit` do not match);
 *  - anything else: exactly that command;
 *  - `*` elsewhere matches any run of characters.
 */
export type CommandMatcher = (words: readonly string[]) => boolean;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function globToRegExpSource(s: string): string {
  return s.split('*').map(escapeRegExp).join('.*');
}

export function compileCommandPattern(specifier: string): CommandMatcher {
  const spec = specifier.trim().replace(/\s+/g, ' ');
  let body: string;
  if (spec.endsWith(':*') && spec.length > 2) body = `${globToRegExpSource(spec.slice(0, -2).trimEnd())}(?: .*)?`;
  else if (spec.endsWith(' *') && spec.length > 2) body = `${globToRegExpSource(spec.slice(0, -2).trimEnd())}(?: .*)?`;
  else body = globToRegExpSource(spec);
  const re = new RegExp(`^${body}$`, 's');
  return (words) => words.length > 0 && re.test(words.join(' '));
}

/**
 * The leading words of a specifier that contain no glob (used to index rules in a word trie): a command can only
 * match the rule if its own first words are exactly these.
 */
export function literalLeadingWords(specifier: string): string[] {
  let spec = specifier.trim().replace(/\s+/g, ' ');
  if ((spec.endsWith(':*') || spec.endsWith(' *')) && spec.length > 2) spec = spec.slice(0, -2).trimEnd();
  const out: string[] = [];
  for (const word of spec.split(' ')) {
    if (!word || word.includes('*')) break;
    out.push(word);
  }
  return out;
}
