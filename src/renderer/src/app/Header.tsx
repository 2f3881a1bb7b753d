import { ProjectTrustChip } from '../trust';
import { ConnectionBadge } from './ConnectionBadge';
import { useShell } from './store';
import { WorkerStatusBadge } from './WorkerStatusBadge';

export function Header() {
  const project = useShell((s) => s.info?.project ?? null);
  return (
    <header className="app-header">
      <div className="brand">
        <h1>Gatehouse</h1>
        <p className="project" data-testid="current-project">
          {project ? (
            <>
              <span className="label">Project</span> <code title={project}>{project}</code>
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
      </div>
    </header>
  );
}
