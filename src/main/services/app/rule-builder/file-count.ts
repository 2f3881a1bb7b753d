import fs from 'node:fs';
import path from 'node:path';
import picomatch from 'picomatch';
import { GatehouseError } from '../../../../shared/errors';
import { FS_CASE, isInside, relativeInside } from '../../../../shared/node/path-containment';
import { parseRule } from '../../../core/rule-syntax/parse-rule';
import { compilePathPattern, compilePathPatternParts } from '../../../core/permission/rules/path-pattern';

export interface FileCount {
  count: number;
  complete: boolean;
  examples: string[];
}

export interface FileCountOptions {
  projectRoot: string;
  /** The project first, then the additional directories (real paths): the only places file tools reach. */
  roots: readonly string[];
  home: string;
  /** How many folder entries the walk looks at before it stops (the count is then a lower bound). */
  maxEntries?: number;
  maxDepth?: number;
}

const MAX_ENTRIES = 20_000;
const MAX_DEPTH = 32;
const MAX_EXAMPLES = 5;

/** The folder a pattern's matches all lie under (its literal leading part), or null when they may be anywhere. */
function patternBase(specifier: string, projectRoot: string, home: string): string | null {
  const compiled = compilePathPatternParts(specifier);
  let spec = specifier.trim();
  if (spec.endsWith('/')) spec += '**';
  if (compiled.anchor === 'anywhere') return null;
  const body = spec.startsWith('//')
    ? spec.slice(2)
    : spec.startsWith('~/')
      ? spec.slice(2)
      : spec === '~'
        ? ''
        : spec.replace(/^\.?\//, '');
  const scan = picomatch.scan(body);
  // A pattern without a glob names one path: the walk starts in its folder (it may be a file).
  const base = scan.isGlob ? scan.base : path.posix.dirname(body);
  const anchor = compiled.anchor === 'project' ? projectRoot : compiled.anchor === 'home' ? home : '/';
  return path.resolve(anchor, base);
}

/**
 * Where a walk for `base` starts inside `root`: the base itself, the root (base above it), or nowhere. A base reached
 * through a symbolic link is walked from the root instead (the walk follows no link).
 */
async function startIn(root: string, base: string | null): Promise<string | null> {
  if (base === null || isInside(root, base, FS_CASE)) return root;
  if (!isInside(base, root, FS_CASE)) return null;
  const real = await fs.promises.realpath(base).catch(() => null);
  return real === base ? base : real === null ? null : root;
}

/**
 * How many files under the project and its additional directories a path rule (`Read(src/**)`, `Edit(*.ts)`)
 * matches, with the engine's own pattern compiler. Bounded and asynchronous: it walks at most `maxEntries` folder
 * entries (from the pattern's literal folder when it has one), never follows a symbolic link (a rule judges where a
 * file really is), and says when it stopped early.
 */
export async function countRuleFiles(rule: string, options: FileCountOptions): Promise<FileCount> {
  const parsed = parseRule(rule);
  if (!parsed.ok) throw new GatehouseError('BAD_REQUEST', `invalid rule: ${parsed.reason}`);
  const spec = parsed.rule.specifier;
  if (parsed.rule.kind !== 'path' || spec === null)
    throw new GatehouseError('BAD_REQUEST', `${rule} is not a path rule (Read(...), Edit(...)): it matches no files`);
  const { projectRoot, home } = options;
  const matches = compilePathPattern(spec, { projectRoot, home });
  const base = patternBase(spec, projectRoot, home);
  const maxEntries = options.maxEntries ?? MAX_ENTRIES;
  const maxDepth = options.maxDepth ?? MAX_DEPTH;
  let seen = 0;
  let complete = true;
  let count = 0;
  const examples: string[] = [];
  const found = await Promise.all(options.roots.map((r) => startIn(r, base)));
  const distinct = [...new Set(found.filter((s): s is string => s !== null))];
  // An additional directory inside the project is walked once, with the project.
  const starts = distinct.filter((s) => !distinct.some((o) => o !== s && isInside(s, o, FS_CASE)));
  let level = starts.map((dir) => ({ dir, depth: 0 }));
  while (level.length > 0 && complete) {
    const next: typeof level = [];
    for (const { dir, depth } of level) {
      let names: fs.Dirent[];
      try {
        names = await fs.promises.readdir(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const entry of names) {
        if (++seen > maxEntries) {
          complete = false;
          break;
        }
        const abs = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (depth + 1 < maxDepth) next.push({ dir: abs, depth: depth + 1 });
          else complete = false;
        } else if (entry.isFile() && matches(abs)) {
          count++;
          if (examples.length < MAX_EXAMPLES) examples.push(relativeInside(abs, projectRoot, FS_CASE) ?? abs);
        }
      }
      if (!complete) break;
    }
    level = next;
  }
  return { count, complete, examples };
}
