import { useEffect } from 'react';
import { useApi, useApiEvent, useConnection } from '../api/context';
import { TrustChip } from './TrustChip';
import { TrustDialog } from './TrustDialog';
import { TrustedFoldersPage } from './TrustedFoldersPage';
import {
  answerTrust,
  dismissTrust,
  loadTrust,
  loadTrustList,
  neverTrust,
  openTrustChoice,
  revokeTrust,
  selectDialogOpen,
  switchExtensions,
  useTrust,
} from './trust-state';
import { Shown } from '../display/Shown';

import './trust.css';

/** Keeps the trust state current: on (re)connection, when the project changes and when a decision changes. */
function useTrustSync(): void {
  const api = useApi();
  const connected = useConnection().status === 'open';
  useEffect(() => {
    if (!connected) return;
    const reload = () => {
      void loadTrust(api);
      void loadTrustList(api);
    };
    reload();
    // A decision changed from elsewhere (the CLI, another window) shows when the person comes back to this one.
    window.addEventListener('focus', reload);
    return () => window.removeEventListener('focus', reload);
  }, [api, connected]);
  useApiEvent((event) => {
    if (event.type === 'projectChanged') {
      useTrust.setState({ choosing: false });
      void loadTrust(api);
      void loadTrustList(api);
    }
    if (event.type === 'trustChanged') {
      void loadTrust(api);
      void loadTrustList(api);
    }
  });
}

/** The header chip, wired to the open project. Mount it in the header. */
export function ProjectTrustChip() {
  const status = useTrust((s) => (s.project ? s.status : null));
  return <TrustChip status={status} onOpen={openTrustChoice} />;
}

/** The trust dialog, shown when the open project has no decision (default `ask`) or when the chip asks for it. */
function ProjectTrustPrompt() {
  const api = useApi();
  const open = useTrust(selectDialogOpen);
  const status = useTrust((s) => s.status);
  const parent = useTrust((s) => s.parent);
  const preview = useTrust((s) => s.preview);
  const busy = useTrust((s) => s.busy);
  const error = useTrust((s) => s.error);
  return (
    <>
      {error ? (
        <p className="error trust-error" role="alert">
          <Shown text={error} />
        </p>
      ) : null}
      {open && status ? (
        <TrustDialog
          key={status.path}
          path={status.path}
          parent={parent}
          preview={preview}
          status={status}
          busy={busy}
          onAnswer={(scope, extensions) => void answerTrust(api, scope, extensions)}
          onNotNow={dismissTrust}
        />
      ) : null}
    </>
  );
}

/** The "Trusted folders" page, wired to main. */
export function ProjectTrustedFolders() {
  const api = useApi();
  const entries = useTrust((s) => s.entries);
  const storeError = useTrust((s) => s.storeError);
  const error = useTrust((s) => s.listError);
  const project = useTrust((s) => s.project);
  const storedAt = useTrust((s) => (s.status?.trusted ? s.status.storedAt : null));
  return (
    <TrustedFoldersPage
      entries={entries}
      onExtensions={(entry, change) => {
        // A grant above the open project: switch it through the project (main accepts "on" for the open one only).
        const viaProject = project !== null && storedAt === entry.path && entry.path !== project;
        void switchExtensions(api, viaProject ? project : entry.path, change);
      }}
      storeError={storeError}
      error={error}
      onRevoke={(p) => void revokeTrust(api, p)}
      onNever={(p) => void neverTrust(api, p)}
    />
  );
}

/**
 * Everything but the chip, in one: keeps the state in sync, shows the prompt when needed and the trusted-folders
 * page. Mount once inside <ApiProvider> (e.g. in <main>), and <ProjectTrustChip /> in the header.
 */
export function TrustFeature({ showFolders = true }: { showFolders?: boolean }) {
  useTrustSync();
  return (
    <>
      <ProjectTrustPrompt />
      {showFolders ? <ProjectTrustedFolders /> : null}
    </>
  );
}
