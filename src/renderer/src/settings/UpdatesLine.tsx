import { useEffect, useState } from 'react';
import type { UpdateStatus } from '../../../shared/updates-contract';
import { errorMessage } from '../api/errors';
import { useApi, useApiEvent } from '../api/context';
import { Shown } from '../display/Shown';

/**
 * Settings > Updates: the running version and the updater's state in one line, "Check now", and "Restart to
 * update" once an update is downloaded. Status changes arrive as `updateStatus` events.
 */
export function UpdatesLine() {
  const api = useApi();
  const [status, setStatus] = useState<UpdateStatus | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    api.getUpdateStatus({}).then(setStatus, (err: unknown) => setFailure(errorMessage(err)));
  }, [api]);
  useApiEvent((event) => {
    if (event.type === 'updateStatus') setStatus(event.status);
  });
  const run = (call: Promise<UpdateStatus>) => {
    setFailure(null);
    call.then(setStatus, (err: unknown) => setFailure(errorMessage(err)));
  };
  const busy = status?.state === 'checking' || status?.state === 'downloading';
  const canCheck =
    status !== null && !busy && status.state !== 'unavailable' && status.state !== 'off' && status.state !== 'ready';
  const progress = status?.state === 'downloading' && status.percent !== null ? ` ${status.percent}%` : '';

  return (
    <div className="settings-form" data-testid="settings-updates">
      <p className="settings-note" role="status" aria-live="polite" data-testid="settings-updates-status">
        {/* The message may carry an update server's error text: shown with its hidden characters marked. */}
        {status ? (
          <Shown text={`Gatehouse ${status.currentVersion}. ${status.message}${progress}`} />
        ) : (
          'Reading the update status…'
        )}
      </p>
      <div className="settings-row">
        <button type="button" disabled={!canCheck} onClick={() => run(api.checkForUpdates({}))}>
          {status?.state === 'checking' ? 'Checking…' : 'Check now'}
        </button>
        {status?.state === 'ready' ? (
          <button type="button" onClick={() => run(api.installUpdate({}))}>
            Restart to update
          </button>
        ) : null}
      </div>
      {failure ? (
        <p className="settings-status error" role="alert">
          <Shown text={failure} />
        </p>
      ) : null}
    </div>
  );
}
