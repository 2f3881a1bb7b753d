import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { useApi } from '../api';
import { openProject, pickAndOpenProject, useShell } from './store';
import { Shown, shownText } from '../display';

/** Desktop: the OS folder picker. Browser shell: a typed path (the server has no picker to show). */
function OpenFolder() {
  const api = useApi();
  const shell = useShell((s) => s.info?.shell ?? null);
  const [path, setPath] = useState('');
  const inputId = useId();
  if (shell === 'desktop') {
    return (
      <button type="button" onClick={() => void pickAndOpenProject(api)}>
        Open folder…
      </button>
    );
  }
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typed = path;
    const trimmed = typed.trim();
    // Clear the box only if it still holds what was opened: the person may have typed the next path meanwhile.
    if (trimmed && (await openProject(api, trimmed))) setPath((now) => (now === typed ? '' : now));
  };
  return (
    <form className="open-folder" onSubmit={(e) => void submit(e)}>
      <label htmlFor={inputId}>Folder path</label>
      <input
        id={inputId}
        type="text"
        value={path}
        onChange={(e) => setPath(e.target.value)}
        placeholder="/home/me/my-project"
        spellCheck={false}
        autoComplete="off"
      />
      <button type="submit" disabled={!path.trim()}>
        Open
      </button>
    </form>
  );
}

function RecentProjects() {
  const api = useApi();
  const recent = useShell((s) => s.recent);
  const current = useShell((s) => s.info?.project ?? null);
  if (recent.length === 0) return <p className="muted">No recent projects yet.</p>;
  return (
    <ul className="recent" aria-label="Recent projects">
      {recent.map((dir) => (
        <li key={dir}>
          <button
            type="button"
            className="link"
            aria-current={dir === current ? 'true' : undefined}
            aria-label={shownText(`Open ${dir}`, { strict: true })}
            onClick={() => void openProject(api, dir)}
          >
            <Shown text={dir} strict lines="inline" as="code" />
          </button>
          {dir === current ? <span className="tag">open</span> : null}
        </li>
      ))}
    </ul>
  );
}

export function ProjectPanel() {
  const error = useShell((s) => s.projectError);
  return (
    <section className="panel" aria-labelledby="project-title">
      <div className="panel-head">
        <h2 id="project-title">Project</h2>
      </div>
      <OpenFolder />
      {error ? (
        <p className="error" role="alert">
          <Shown text={error} />
        </p>
      ) : null}
      <h3>Recent projects</h3>
      <RecentProjects />
    </section>
  );
}
