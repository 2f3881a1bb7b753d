import type { FolderEntry, FolderRoot } from '../../../../shared/rule-builder-contract';

/**
 * The file tree's model, apart from React: which folders are open, what each listed, and the rows shown (a flat list
 * with levels, as an ARIA tree reads it). Pure, so the keyboard moves are easy to follow and to test.
 */

export interface TreeRow {
  key: string;
  root: FolderRoot;
  /** Relative to the root, `/`-separated; `''` for the root row. */
  rel: string;
  name: string;
  kind: FolderEntry['kind'];
  level: number;
  /** Position among its siblings (1-based) and how many siblings there are. */
  pos: number;
  size: number;
  parent: string | null;
}

export type Listing = { entries: FolderEntry[]; truncated: boolean } | { error: string };

export const rowKey = (root: string, rel: string): string => `${root}\u0000${rel}`;

const join = (dir: string, name: string): string => (dir === '' ? name : `${dir}/${name}`);

function rootName(root: FolderRoot): string {
  if (root.kind === 'additional') return root.path;
  return root.path.split('/').filter(Boolean).pop() ?? root.path;
}

/** The rows shown: each root, and below every open folder what it listed. */
export function visibleRows(
  roots: readonly FolderRoot[],
  open: ReadonlySet<string>,
  listings: ReadonlyMap<string, Listing>,
): TreeRow[] {
  const rows: TreeRow[] = [];
  const walk = (root: FolderRoot, rel: string, level: number, parent: string): void => {
    const listing = listings.get(rowKey(root.path, rel));
    if (!listing || 'error' in listing) return;
    listing.entries.forEach((e, i) => {
      const childRel = join(rel, e.name);
      const key = rowKey(root.path, childRel);
      rows.push({
        key,
        root,
        rel: childRel,
        name: e.name,
        kind: e.kind,
        level,
        pos: i + 1,
        size: listing.entries.length,
        parent,
      });
      if (e.kind === 'dir' && open.has(key)) walk(root, childRel, level + 1, key);
    });
  };
  roots.forEach((root, i) => {
    const key = rowKey(root.path, '');
    rows.push({
      key,
      root,
      rel: '',
      name: rootName(root),
      kind: 'dir',
      level: 1,
      pos: i + 1,
      size: roots.length,
      parent: null,
    });
    if (open.has(key)) walk(root, '', 2, key);
  });
  return rows;
}

/**
 * Where a path given by a call (`src/a.ts`, `./src`, an absolute path) lies: its root and the path below it, or null
 * when it is in none of the roots or climbs out with `..` (the tree only goes down).
 */
export function locate(given: string, roots: readonly FolderRoot[]): { root: FolderRoot; rel: string } | null {
  const project = roots[0];
  if (!project) return null;
  const clean = (rel: string): string | null => {
    const parts = rel.split('/').filter((s) => s !== '' && s !== '.');
    return parts.includes('..') ? null : parts.join('/');
  };
  if (given.startsWith('/')) {
    // The deepest root that holds it (an additional directory may lie inside the project).
    const holders = roots.filter((r) => given === r.path || given.startsWith(`${r.path}/`));
    const root = holders.sort((a, b) => b.path.length - a.path.length)[0];
    if (!root) return null;
    const rel = clean(given.slice(root.path.length));
    return rel === null ? null : { root, rel };
  }
  if (given.startsWith('~')) return null;
  const rel = clean(given);
  return rel === null ? null : { root: project, rel };
}

/** The folders to open, outermost first, to show `rel` (every ancestor, and the root). */
export function ancestors(rel: string): string[] {
  const parts = rel.split('/').filter(Boolean);
  return parts.slice(0, -1).reduce<string[]>((acc, p) => [...acc, join(acc[acc.length - 1] ?? '', p)], ['']);
}
