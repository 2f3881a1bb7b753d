import { useDeferredValue, useId, useMemo, useState } from 'react';
import { ALL_EXTENSIONS } from '../../../shared/trust-contract';
import type { TrustEntry, TrustExtensions, TrustStoreError } from '../../../shared/trust-contract';
import { ConfirmDialog } from '../app/ConfirmDialog';
import type { ConfirmAction } from '../app/ConfirmDialog';
import { Shown, shownText } from '../display/Shown';
import { ExtensionSwitches } from './ExtensionSwitches';

/** Rows rendered at once; more are shown on request (the list can hold hundreds of folders). */
const PAGE_SIZE = 200;

const SCOPE_WORDS: Record<TrustEntry['scope'], string> = {
  session: 'trusted for this session',
  directory: 'trusted (this folder)',
  parent: 'trusted (folder and everything below)',
  never: 'never trusted',
};

/** The `parent` grants above `path` that also make it trusted (revoking it removes them too). */
function coveringGrants(entries: readonly TrustEntry[], path: string): TrustEntry[] {
  return entries.filter(
    (e) => e.scope === 'parent' && e.path !== path && (path.startsWith(`${e.path}/`) || e.path === '/'),
  );
}

function formatDate(iso: string | null): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

/** Case-insensitive match on the path, the scope and the folder it was granted from. */
function filterEntries(entries: TrustEntry[], query: string): TrustEntry[] {
  const q = query.trim().toLowerCase();
  if (!q) return entries;
  return entries.filter(
    (e) => e.path.toLowerCase().includes(q) || e.scope.includes(q) || (e.grantedFrom ?? '').toLowerCase().includes(q),
  );
}

export interface TrustedFoldersPageProps {
  entries: TrustEntry[];
  storeError?: TrustStoreError | null;
  error?: string | null;
  onRevoke(path: string): void;
  /** Stores `never` for one folder (it then stays untrusted under a parent's grant). */
  onNever?(path: string): void;
  /** Switches what a trusting decision enables (its rules, hooks, instructions); absent: the column is read only. */
  onExtensions?(entry: TrustEntry, change: Partial<TrustExtensions>): void;
}

/** Every trust decision, searchable, with what each enables (switchable) and a revoke button per folder. */
export function TrustedFoldersPage({
  entries,
  storeError = null,
  error = null,
  onRevoke,
  onNever,
  onExtensions,
}: TrustedFoldersPageProps) {
  const [revoking, setRevoking] = useState<TrustEntry | null>(null);
  const [query, setQuery] = useState('');
  const [limit, setLimit] = useState(PAGE_SIZE);
  const deferredQuery = useDeferredValue(query);
  const matches = useMemo(() => filterEntries(entries, deferredQuery), [entries, deferredQuery]);
  const shown = matches.slice(0, limit);
  const searchId = useId();
  const titleId = useId();

  return (
    <section className="panel trusted-folders" aria-labelledby={titleId}>
      <h2 id={titleId}>Trusted folders</h2>
      {storeError ? (
        <p className="error" role="alert">
          <Shown
            text={`The trust store ${storeError.path} is corrupt (${storeError.reason}); every folder is untrusted until it is repaired${storeError.copy ? ` (a copy is kept at ${storeError.copy})` : ''}. `}
          />
          Run <code>gatehouse trust repair</code>.
        </p>
      ) : null}
      {error ? (
        <p className="error" role="alert">
          <Shown text={error} />
        </p>
      ) : null}
      <div className="trusted-folders-search">
        <label htmlFor={searchId}>Search folders</label>
        <input
          id={searchId}
          type="search"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setLimit(PAGE_SIZE);
          }}
          spellCheck={false}
          autoComplete="off"
        />
      </div>
      <p className="muted" aria-live="polite">
        {entries.length === 0
          ? 'No decisions yet: a folder appears here once you answer its trust question (or run gatehouse trust).'
          : `${matches.length} of ${entries.length} folders`}
      </p>
      {shown.length ? (
        <div className="trusted-folders-table-wrap">
          <table className="trusted-folders-table">
            <thead>
              <tr>
                <th scope="col">Folder</th>
                <th scope="col">Decision</th>
                <th scope="col">Enables</th>
                <th scope="col">Decided</th>
                <th scope="col">Last opened</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((e) => (
                <tr key={`${e.scope === 'session' ? 's' : 'd'}:${e.path}`}>
                  <td>
                    <Shown text={e.path} strict lines="inline" as="code" />
                    {e.grantedFrom && e.grantedFrom !== e.path ? (
                      <Shown className="muted" text={` (from ${e.grantedFrom})`} strict lines="inline" />
                    ) : null}
                  </td>
                  <td>{SCOPE_WORDS[e.scope]}</td>
                  <td>
                    {e.scope === 'never' ? (
                      <span className="muted">nothing</span>
                    ) : (
                      <ExtensionSwitches
                        legend={shownText(`What trusting ${e.path} enables`, { strict: true })}
                        folder={shownText(e.path, { strict: true })}
                        value={e.extensions ?? ALL_EXTENSIONS}
                        disabled={!onExtensions}
                        onChange={(change) => onExtensions?.(e, change)}
                      />
                    )}
                  </td>
                  <td title={shownText(e.grantedAt)}>
                    <Shown text={formatDate(e.grantedAt)} lines="inline" />
                  </td>
                  <td title={e.lastOpened === null ? undefined : shownText(e.lastOpened)}>
                    <Shown text={formatDate(e.lastOpened)} lines="inline" />
                  </td>
                  <td>
                    <button
                      type="button"
                      className="danger"
                      aria-label={shownText(`Revoke ${e.path}`, { strict: true })}
                      onClick={() => setRevoking(e)}
                    >
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {revoking ? (
        <RevokeDialog
          entry={revoking}
          covering={coveringGrants(entries, revoking.path)}
          onRevoke={() => {
            setRevoking(null);
            onRevoke(revoking.path);
          }}
          onNever={
            onNever
              ? () => {
                  setRevoking(null);
                  onNever(revoking.path);
                }
              : undefined
          }
          onCancel={() => setRevoking(null)}
        />
      ) : null}
      {matches.length > shown.length ? (
        <button type="button" onClick={() => setLimit((n) => n + PAGE_SIZE)}>
          Show {Math.min(PAGE_SIZE, matches.length - shown.length)} more ({matches.length - shown.length} not shown)
        </button>
      ) : null}
    </section>
  );
}

/**
 * Asks before a revoke. Under a parent's grant it asks what is meant: the folder stays trusted through the parent
 * unless that grant goes too ("Revoke … and the parent's grant") or the folder is marked "Never trust".
 */
function RevokeDialog({
  entry,
  covering,
  onRevoke,
  onNever,
  onCancel,
}: {
  entry: TrustEntry;
  covering: TrustEntry[];
  onRevoke(): void;
  onNever?: () => void;
  onCancel(): void;
}) {
  const parents = covering.map((c) => c.path);
  const actions: ConfirmAction[] = covering.length
    ? [
        ...(onNever ? [{ label: 'Never trust this folder only', onClick: onNever, danger: true }] : []),
        {
          label: `Revoke it and the grant for ${parents.length === 1 ? 'the parent folder' : 'the parent folders'}`,
          onClick: onRevoke,
          danger: true,
        },
      ]
    : [{ label: 'Revoke', onClick: onRevoke, danger: true }];
  return (
    <ConfirmDialog
      heading={
        covering.length ? 'This folder is also trusted through a parent folder' : 'Revoke trust for this folder?'
      }
      actions={actions}
      onCancel={onCancel}
    >
      <p>
        <Shown text={entry.path} strict lines="inline" as="code" />
      </p>
      {covering.length ? (
        <>
          <p>
            <Shown
              text={`It is trusted through ${parents.join(', ')} (folder and everything below). Revoking only this folder would change nothing. Choose:`}
            />
          </p>
          <ul>
            <li>
              <strong>Never trust this folder only</strong>: it becomes untrusted; the parent&apos;s other folders stay
              trusted.
            </li>
            <li>
              <strong>Revoke it and the parent&apos;s grant</strong>: every folder below the parent becomes untrusted.
            </li>
          </ul>
        </>
      ) : (
        <p>
          {entry.scope === 'never'
            ? 'The "never" decision is removed: the folder asks again (or follows your trust default) next time.'
            : 'From its next tool call, the project is untrusted: its allow rules, hooks and instruction files stop loading.'}
        </p>
      )}
    </ConfirmDialog>
  );
}
