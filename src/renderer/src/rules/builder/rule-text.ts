import type { CommandWord } from '../../../../shared/rule-builder-contract';

/**
 * The rule text the builder computes from what the person pointed at. Pure functions: the builder shows their result
 * and main validates it with the engine's parser (validateRule) before anything is written.
 */

/** What a rule is about, as the builder offers it. */
export type RuleKind = 'command' | 'read' | 'edit' | 'web' | 'mcp';

/** How far a command rule reaches: exactly the chosen words, or the chosen words and anything after them. */
export type CommandReach = 'exact' | 'prefix';

/**
 * `Bash(npm run lint)` (exactly these words) or `Bash(npm run lint:*)` (these words alone or followed by more), from
 * the first `count` words. Null when no word is chosen or a chosen word cannot be spelled in a rule.
 */
export function commandRule(words: readonly CommandWord[], count: number, reach: CommandReach): string | null {
  const chosen = words.slice(0, count);
  if (chosen.length === 0 || chosen.some((w) => w.unusable)) return null;
  const spec = chosen.map((w) => w.text).join(' ');
  return reach === 'prefix' ? `Bash(${spec}:*)` : `Bash(${spec})`;
}

/** The most words a rule may take from this command: up to (not including) the first it cannot spell. */
export function usableWords(words: readonly CommandWord[]): number {
  const at = words.findIndex((w) => w.unusable);
  return at === -1 ? words.length : at;
}

/** What a path rule covers: the one file, the folder and everything below it, or files with the same extension. */
export type PathReach = 'file' | 'folder' | 'extension';

/** A path the file tree points at: its root (the project or an additional directory) and where below it. */
export interface PointedPath {
  /** The root's real path. */
  root: string;
  /** True when the root is the project (patterns are then written relative to it). */
  inProject: boolean;
  /** Relative to the root, `/`-separated; `''` is the root itself. */
  rel: string;
  isDir: boolean;
}

/** The extension of a file name (`.ts` for `a.test.ts`), or null (none, or a dot file such as `.env`). */
export function extensionOf(name: string): string | null {
  const at = name.lastIndexOf('.');
  return at <= 0 || at === name.length - 1 ? null : name.slice(at);
}

function parentOf(rel: string): string {
  const at = rel.lastIndexOf('/');
  return at === -1 ? '' : rel.slice(0, at);
}

/** Glob characters in a name are escaped so a pattern names that path only. */
function literal(rel: string): string {
  return rel.replace(/[*?[\]{}()!\\]/g, (c) => `\\${c}`);
}

/**
 * The path pattern (`./src/a.ts`, `src/**`, `src/**\/*.ts`) for what was pointed at. Project paths are written
 * relative to the project root (`./` where a pattern without a slash would mean "that name in any folder"); a path in
 * an additional directory is absolute (`//abs/...`). Null when the reach does not apply (no extension, a folder's file).
 */
export function pathPattern(p: PointedPath, reach: PathReach): string | null {
  const name = p.rel.split('/').pop() ?? '';
  const prefix = (rel: string): string => {
    if (!p.inProject) return `//${literal(p.root.replace(/^\/+/, ''))}${rel ? `/${rel}` : ''}`;
    return rel;
  };
  const under = (dir: string, tail: string): string => {
    const base = prefix(literal(dir));
    if (base === '') return p.inProject ? `./${tail}` : tail;
    return `${base}/${tail}`;
  };
  if (reach === 'file') {
    if (p.isDir || p.rel === '') return null;
    const rel = literal(p.rel);
    return p.inProject ? `./${rel}` : prefix(rel);
  }
  if (reach === 'folder') return under(p.isDir ? p.rel : parentOf(p.rel), '**');
  const ext = p.isDir ? null : extensionOf(name);
  if (ext === null) return null;
  return under(parentOf(p.rel), `**/*${literal(ext)}`);
}

/** `Read(...)` or `Edit(...)` around a pattern. */
export function pathRule(kind: 'read' | 'edit', pattern: string): string {
  return `${kind === 'read' ? 'Read' : 'Edit'}(${pattern})`;
}

/** `WebFetch(domain:example.com)`: kept for tools that fetch the web (Gatehouse has none: it matches nothing here). */
export function webRule(domain: string): string | null {
  const d = domain.trim().toLowerCase();
  if (!/^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(d)) return null;
  return `WebFetch(domain:${d})`;
}

/** `mcp__server` (every tool) or `mcp__server__tool`. */
export function mcpRule(server: string, tool: string | null): string {
  return tool === null ? `mcp__${server}` : `mcp__${server}__${tool}`;
}
