import fs from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';

/**
 * A small .gitignore reader, with the semantics the tools need: patterns, `!` negation, dir-only `dir/`,
 * anchored `/x` and `a/b`, unanchored names matching at any depth, `#` comments, `\#`/`\!` escapes.
 * Later rules win; nested .gitignore files apply below their folder. `.git/` and `node_modules/` are always skipped.
 */
export const ALWAYS_SKIPPED_DIRS: ReadonlySet<string> = new Set(['.git', 'node_modules']);

interface IgnoreRule {
  /** Folder of the .gitignore, relative to the walk's ignore root ('' = the root), posix separators. */
  base: string;
  negate: boolean;
  dirOnly: boolean;
  anchored: boolean;
  match: (subject: string) => boolean;
}

export function parseGitignore(text: string, base: string): IgnoreRule[] {
  const rules: IgnoreRule[] = [];
  for (const rawLine of text.split(/\r?\n/)) {
    let line = rawLine.replace(/(?<!\\)\s+$/, '');
    if (line === '' || line.startsWith('#')) continue;
    let negate = false;
    if (line.startsWith('!')) {
      negate = true;
      line = line.slice(1);
    } else if (line.startsWith('\\#') || line.startsWith('\\!')) {
      line = line.slice(1);
    }
    let dirOnly = false;
    if (line.endsWith('/')) {
      dirOnly = true;
      line = line.replace(/\/+$/, '');
    }
    const anchored = line.includes('/');
    line = line.replace(/^\/+/, '');
    if (line === '') continue;
    const isMatch = picomatch(line, { dot: true });
    rules.push({ base, negate, dirOnly, anchored, match: (subject) => isMatch(subject) });
  }
  return rules;
}

/** The ignore rules in force in one folder of a walk (its own .gitignore plus its ancestors'). */
export class IgnoreStack {
  private constructor(private readonly rules: readonly IgnoreRule[]) {}

  static empty(): IgnoreStack {
    return new IgnoreStack([]);
  }

  /** The stack for a child folder: adds that folder's .gitignore, if any. `relDir` is relative to the ignore root. */
  enter(absDir: string, relDir: string): IgnoreStack {
    let text: string;
    try {
      const file = path.join(absDir, '.gitignore');
      if (!fs.lstatSync(file).isFile()) return this;
      text = fs.readFileSync(file, 'utf8');
    } catch {
      return this;
    }
    const added = parseGitignore(text, relDir);
    return added.length === 0 ? this : new IgnoreStack([...this.rules, ...added]);
  }

  /** `rel`: path relative to the ignore root, posix separators. */
  isIgnored(rel: string, isDir: boolean): boolean {
    for (let i = this.rules.length - 1; i >= 0; i--) {
      const rule = this.rules[i];
      if (rule === undefined) continue;
      if (rule.dirOnly && !isDir) continue;
      let sub: string;
      if (rule.base === '') sub = rel;
      else if (rel.startsWith(rule.base + '/')) sub = rel.slice(rule.base.length + 1);
      else continue;
      const subject = rule.anchored ? sub : sub.slice(sub.lastIndexOf('/') + 1);
      if (rule.match(subject)) return !rule.negate;
    }
    return false;
  }

  /** The stack in force inside `relDir` (relative to `rootAbs`), loading every .gitignore from the root down. */
  static forFolder(rootAbs: string, relDir: string): IgnoreStack {
    let stack = IgnoreStack.empty().enter(rootAbs, '');
    if (relDir === '' || relDir === '.') return stack;
    let acc = '';
    for (const seg of relDir.split('/')) {
      acc = acc === '' ? seg : `${acc}/${seg}`;
      stack = stack.enter(path.join(rootAbs, ...acc.split('/')), acc);
    }
    return stack;
  }
}
