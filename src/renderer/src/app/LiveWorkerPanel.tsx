import { useApi } from '../api/context';
import { pingWorker, useShell } from './store';
import { Shown } from '../display/Shown';

/** What the live worker process says about itself: a real round trip through main to the worker. */
export function LiveWorkerPanel() {
  const api = useApi();
  const live = useShell((s) => s.live);
  const error = useShell((s) => s.liveError);
  const pinging = useShell((s) => s.pinging);
  return (
    <section className="live-worker" aria-labelledby="live-worker-title" data-testid="live-worker">
      <div className="panel-head">
        <h3 id="live-worker-title">Worker process</h3>
        <button type="button" className="secondary" onClick={() => void pingWorker(api)} disabled={pinging}>
          {pinging ? 'Pinging…' : 'Ping worker'}
        </button>
      </div>
      <p className="panel-note">As reported by the worker process itself, through main.</p>
      {error ? (
        <p className="error" role="alert">
          <Shown text={`Worker unavailable: ${error}`} />
        </p>
      ) : !live ? (
        <p className="muted">Asking the worker…</p>
      ) : (
        <dl className="facts">
          <dt>Process id</dt>
          <dd>
            <Shown text={String(live.pid)} data-testid="live-worker-pid" />
          </dd>
          <dt>Version</dt>
          <dd>
            <Shown text={live.version} data-testid="live-worker-version" />
          </dd>
          <dt>Runtime</dt>
          <dd>
            <Shown text={`${live.runtime} (Node ${live.nodeVersion})`} />
          </dd>
          <dt>Protocol</dt>
          <dd>
            <Shown text={String(live.protocol)} />
          </dd>
          <dt>Started</dt>
          <dd>
            <time dateTime={live.startedAt}>{new Date(live.startedAt).toLocaleString()}</time>
          </dd>
        </dl>
      )}
    </section>
  );
}
