import type { WorkerStatus } from '../../../shared/api';
import { useShell } from './store';
import { Shown } from '../display/Shown';

function describe(status: WorkerStatus): string {
  const info = status.info;
  switch (status.state) {
    case 'ready':
      return info ? `Worker ready · pid ${info.pid} · v${info.version}` : 'Worker ready';
    case 'starting':
      return 'Worker starting…';
    case 'restarting':
      return `Worker restarting${status.message ? `: ${status.message}` : '…'}`;
    case 'failed':
      return `Worker unavailable: ${status.message ?? 'it stopped and was not restarted'}`;
    case 'stopped':
      return 'Worker stopped';
  }
}

/** The supervised worker's state, in plain words; the colour only repeats what the text says. */
export function WorkerStatusBadge() {
  const status = useShell((s) => s.worker);
  if (!status) return <span className="badge badge-muted">Worker: unknown</span>;
  const tone = status.state === 'ready' ? 'ok' : status.state === 'failed' ? 'bad' : 'warn';
  return (
    <span
      className={`badge badge-${tone}`}
      role="status"
      aria-live="polite"
      data-testid="worker-status"
      data-state={status.state}
    >
      <Shown
        text={`${describe(status)}${status.restarts > 0 ? ` · ${status.restarts} restart${status.restarts === 1 ? '' : 's'}` : ''}`}
        lines="inline"
      />
    </span>
  );
}
