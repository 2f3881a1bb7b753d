import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import type { FolderRoot } from '../../../../shared/rule-builder-contract';
import { errorMessage } from '../../api/errors';
import { useApi } from '../../api/context';
import { Shown, shownText } from '../../display/Shown';
import type { PointedPath } from './rule-text';
import { ancestors, locate, rowKey, visibleRows, type Listing, type TreeRow } from './tree-model';

export interface FileTreeProps {
  /** A path to show and select when it changes (from a call the builder starts from). */
  reveal: { path: string; nonce: number } | null;
  selected: PointedPath | null;
  onSelect(p: PointedPath): void;
}

const KIND_SUFFIX: Record<TreeRow['kind'], string> = { dir: '/', file: '', link: ' (link, not followed)', other: '' };

/**
 * The project's files (and its additional directories') as an ARIA tree: folders listed by main when opened (main
 * refuses anything outside the roots and never follows a link), one tab stop, arrow keys to move, Right and Left to
 * open and close, Home and End, Enter or Space to choose.
 */
export function FileTree({ reveal, selected, onSelect }: FileTreeProps) {
  const api = useApi();
  const [roots, setRoots] = useState<FolderRoot[]>([]);
  const [listings, setListings] = useState<ReadonlyMap<string, Listing>>(new Map());
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const [focused, setFocused] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const items = useRef(new Map<string, HTMLLIElement>());
  const moved = useRef(false);

  const load = useCallback(
    async (root: string, rel: string): Promise<Listing> => {
      try {
        const r = await api.listRuleFolder({ root, dir: rel });
        const listing = { entries: r.entries, truncated: r.truncated };
        setListings((m) => new Map(m).set(rowKey(root, rel), listing));
        return listing;
      } catch (err) {
        const listing = { error: errorMessage(err) };
        setListings((m) => new Map(m).set(rowKey(root, rel), listing));
        return listing;
      }
    },
    [api],
  );

  useEffect(() => {
    let live = true;
    api.listRuleFolder({ dir: '' }).then(
      (r) => {
        if (!live) return;
        const key = rowKey(r.root, '');
        setRoots(r.roots);
        setListings((m) => new Map(m).set(key, { entries: r.entries, truncated: r.truncated }));
        setOpen((o) => new Set(o).add(key));
        setFocused((f) => f ?? key);
      },
      (err: unknown) => live && setError(errorMessage(err)),
    );
    return () => {
      live = false;
    };
  }, [api]);

  // A call's path: open every folder above it, then select it (a file not there yet is still a path to write).
  useEffect(() => {
    if (!reveal || roots.length === 0) return;
    const found = locate(reveal.path, roots);
    if (!found) {
      setError(`${reveal.path} is not in the project or its additional directories: choose a file below`);
      return;
    }
    let live = true;
    void (async () => {
      let listing: Listing | null = null;
      for (const dir of ancestors(found.rel)) {
        listing = await load(found.root.path, dir);
        if (!live) return;
        setOpen((o) => new Set(o).add(rowKey(found.root.path, dir)));
      }
      const name = found.rel.split('/').pop() ?? '';
      const entry = listing && !('error' in listing) ? listing.entries.find((e) => e.name === name) : undefined;
      const isDir = found.rel === '' || entry?.kind === 'dir';
      onSelect({ root: found.root.path, inProject: found.root.kind === 'project', rel: found.rel, isDir });
      setFocused(rowKey(found.root.path, found.rel));
      setError(null);
    })();
    return () => {
      live = false;
    };
    // onSelect is the builder's setter: a new reveal (nonce) is what runs this again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [reveal?.nonce, roots, load]);

  const rows = useMemo(() => visibleRows(roots, open, listings), [roots, open, listings]);
  const focusKey = rows.some((r) => r.key === focused) ? focused : (rows[0]?.key ?? null);

  useEffect(() => {
    if (!moved.current || focusKey === null) return;
    moved.current = false;
    items.current.get(focusKey)?.focus();
  }, [focusKey, rows]);

  const move = (key: string | undefined): void => {
    if (key === undefined) return;
    moved.current = true;
    setFocused(key);
  };
  const toggle = (row: TreeRow, wantOpen: boolean): void => {
    if (row.kind !== 'dir') return;
    if (wantOpen && !listings.has(row.key)) void load(row.root.path, row.rel);
    setOpen((o) => {
      const next = new Set(o);
      if (wantOpen) next.add(row.key);
      else next.delete(row.key);
      return next;
    });
  };
  const choose = (row: TreeRow): void => {
    if (row.kind === 'link' || row.kind === 'other') return;
    onSelect({ root: row.root.path, inProject: row.root.kind === 'project', rel: row.rel, isDir: row.kind === 'dir' });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLUListElement>): void => {
    const at = rows.findIndex((r) => r.key === focusKey);
    const row = rows[at];
    if (!row) return;
    const handled = (): void => {
      e.preventDefault();
      e.stopPropagation();
    };
    switch (e.key) {
      case 'ArrowDown':
        handled();
        return move(rows[at + 1]?.key);
      case 'ArrowUp':
        handled();
        return move(rows[at - 1]?.key);
      case 'Home':
        handled();
        return move(rows[0]?.key);
      case 'End':
        handled();
        return move(rows[rows.length - 1]?.key);
      case 'ArrowRight':
        handled();
        if (row.kind !== 'dir') return;
        if (!open.has(row.key)) return toggle(row, true);
        return move(rows[at + 1]?.parent === row.key ? rows[at + 1]?.key : undefined);
      case 'ArrowLeft':
        handled();
        if (row.kind === 'dir' && open.has(row.key)) return toggle(row, false);
        return move(row.parent ?? undefined);
      case 'Enter':
      case ' ':
        handled();
        return choose(row);
      default:
    }
  };

  const isSelected = (row: TreeRow): boolean =>
    selected !== null && selected.root === row.root.path && selected.rel === row.rel;

  return (
    <div className="builder-tree-wrap">
      {error ? (
        <p className="error" role="alert">
          <Shown text={error} />
        </p>
      ) : null}
      <ul className="builder-tree" role="tree" aria-label="Project files" onKeyDown={onKeyDown} data-testid="file-tree">
        {rows.map((row) => {
          const listing = listings.get(row.key);
          const expanded = row.kind === 'dir' ? open.has(row.key) : undefined;
          return (
            // The tree takes the keys (onKeyDown above, one tab stop); a click on an item chooses it too.
            // eslint-disable-next-line jsx-a11y/click-events-have-key-events
            <li
              key={row.key}
              ref={(el) => {
                if (el) items.current.set(row.key, el);
                else items.current.delete(row.key);
              }}
              role="treeitem"
              aria-level={row.level}
              aria-posinset={row.pos}
              aria-setsize={row.size}
              aria-expanded={expanded}
              aria-selected={isSelected(row)}
              aria-disabled={row.kind === 'link' || row.kind === 'other' ? true : undefined}
              tabIndex={row.key === focusKey ? 0 : -1}
              className={`builder-tree-item builder-tree-${row.kind}`}
              style={{ paddingInlineStart: `${(row.level - 1) * 1.1 + 0.3}rem` }}
              title={row.kind === 'link' ? 'A symbolic link: the file tree does not follow links' : undefined}
              onFocus={() => setFocused(row.key)}
              onClick={() => {
                setFocused(row.key);
                choose(row);
                if (row.kind === 'dir' && row.level > 1) toggle(row, !open.has(row.key));
              }}
            >
              <span className="builder-tree-twisty" aria-hidden="true">
                {row.kind === 'dir' ? (expanded ? '▾' : '▸') : ''}
              </span>
              <Shown text={`${row.name}${KIND_SUFFIX[row.kind]}`} strict lines="inline" />
              {listing && 'error' in listing ? (
                <span className="error builder-tree-note">{shownText(` (${listing.error})`)}</span>
              ) : listing && listing.truncated ? (
                <span className="muted builder-tree-note"> (the first 2000 entries)</span>
              ) : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
