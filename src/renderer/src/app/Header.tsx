import { ProjectTrustChip } from '../trust';
import { ConnectionBadge } from './ConnectionBadge';
import { useShell } from './store';
import { WorkerStatusBadge } from './WorkerStatusBadge';
import { Shown } from '../display';

/** `onOpenSettings`: the Settings button (also Ctrl+, / Cmd+,). */
export function Header({ onOpenSettings }: { onOpenSettings?: () => void } = {}) {
  const project = useShell((s) => s.info?.project ?? null);
  return (
    <header className="app-header">
      <div className="brand">
        <h1>Gatehouse</h1>
        <p className="project" data-testid="current-project">
          {project ? (
            <>
              <span className="label">Project</span> <Shown text={project} strict lines="inline" as="code" />
            </>
          ) : (
            <span className="muted">No project open</span>
          )}
        </p>
      </div>
      <div className="header-status">
        <ProjectTrustChip />
        <WorkerStatusBadge />
        <ConnectionBadge />
        {onOpenSettings ? (
          <button
            type="button"
            className="secondary"
            onClick={onOpenSettings}
            aria-label="Open Settings"
            aria-keyshortcuts="Control+, Meta+,"
            title="Settings (Ctrl+,)"
          >
            Settings
          </button>
        ) : null}
      </div>
    </header>
  );
}
