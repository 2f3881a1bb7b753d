import { useEffect, useId, useState } from 'react';
import type { FormEvent } from 'react';
import type { TrustStatus } from '../../../shared/trust-contract';
import { useApi, useApiEvent } from '../api/context';
import { Shown, shownText } from '../display/Shown';
import { setProjectListOpen, useSidebar } from './sidebar-store';
import { openProject, pickAndOpenProject, useShell } from './store';

/** The last part of a path (the folder's own name). */
export function baseName(dir: string): string {
  const parts = dir.split(/[\\/]/).filter(Boolean);
  return parts[parts.length - 1] ?? dir;
}

/** The folders starting with what is typed, from main (the browser shell has no folder picker). */
function useFolderCompletion(path: string): string[] {
  const api = useApi();
  const [folders, setFolders] = useState<string[]>([]);
  useEffect(() => {
    if (!path.startsWith('/') && !path.startsWith('~')) {
      setFolders([]);
      return;
    }
    let current = true;
    const timer = setTimeout(() => {
      api.completePath({ prefix: path }).then(
        (r) => current && setFolders(r.folders),
        () => current && setFolders([]),
      );
    }, 80);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [api, path]);
  return folders;
}

/** Desktop: the OS folder picker. Browser shell: a typed path, with the folders that match offered as you type. */
function OpenFolder() {
  const api = useApi();
  const shell = useShell((s) => s.info?.shell ?? null);
  const [path, setPath] = useState('');
  const inputId = useId();
  const listId = useId();
  const folders = useFolderCompletion(shell === 'desktop' ? '' : path);
  if (shell === 'desktop') {
    return (
      <button type="button" className="secondary" onClick={() => void pickAndOpenProject(api)}>
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
        list={listId}
        value={path}
        onChange={(e) => setPath(e.target.value)}
        placeholder="/home/me/my-project"
        spellCheck={false}
        autoComplete="off"
      />
      <datalist id={listId}>
        {folders.map((f) => (
          <option key={f} value={f} />
        ))}
      </datalist>
      <button type="submit" className="secondary" disabled={!path.trim()}>
        Open
      </button>
    </form>
  );
}

function trustTag(status: TrustStatus | undefined): { text: string; tone: string } {
  if (!status) return { text: '…', tone: 'muted' };
  if (status.trusted) return { text: status.decision === 'session' ? 'trusted (session)' : 'trusted', tone: 'ok' };
  if (status.decision === 'never') return { text: 'never trusted', tone: 'bad' };
  if (status.needsDecision) return { text: 'not decided', tone: 'muted' };
  return { text: 'untrusted', tone: 'warn' };
}

/** Recent projects with their trust, the open one marked. */
function RecentProjects() {
  const api = useApi();
  const recent = useShell((s) => s.recent);
  const current = useShell((s) => s.info?.project ?? null);
  const [trust, setTrust] = useState<Record<string, TrustStatus>>({});
  const [version, setVersion] = useState(0);
  useApiEvent((event) => {
    if (event.type === 'trustChanged') setVersion((v) => v + 1);
  });
  useEffect(() => {
    let current = true;
    for (const dir of recent)
      api.getTrust({ path: dir }).then(
        (r) => current && r.status && setTrust((t) => ({ ...t, [dir]: r.status as TrustStatus })),
        () => undefined,
      );
    return () => {
      current = false;
    };
  }, [api, recent, version]);
  if (recent.length === 0) return <p className="muted sidebar-note">No recent projects yet.</p>;
  return (
    <ul className="recent" aria-label="Recent projects">
      {recent.map((dir) => {
        const tag = trustTag(trust[dir]);
        return (
          <li key={dir}>
            {/* Named by what it shows (the folder's name and path), after a word for what it does. */}
            <button
              type="button"
              className="recent-open"
              aria-current={dir === current ? 'true' : undefined}
              title={shownText(dir, { strict: true })}
              onClick={() => void openProject(api, dir)}
            >
              <span className="visually-hidden">Open </span>
              <Shown className="recent-name" text={baseName(dir)} strict lines="inline" />
              <Shown className="recent-path" text={dir} strict lines="inline" as="code" />
            </button>
            <Shown className={`tag tag-${tag.tone}`} text={tag.text} lines="inline" />
          </li>
        );
      })}
    </ul>
  );
}

/** The open project and the way to another: recent projects (with their trust) and a folder to open. */
export function ProjectSwitcher() {
  const project = useShell((s) => s.info?.project ?? null);
  const error = useShell((s) => s.projectError);
  const loaded = useShell((s) => s.info !== null);
  const open = useSidebar((s) => s.projectList);
  const panelId = useId();
  useApiEvent((event) => {
    if (event.type === 'projectChanged') setProjectListOpen(false);
  });
  // No project open: the list and the path box are what the person needs first.
  useEffect(() => {
    if (loaded && project === null) setProjectListOpen(true);
  }, [loaded, project]);
  return (
    <section className="project-switcher" aria-label="Project">
      <div
        className="project-current"
        data-testid="current-project"
        title={project ? shownText(project, { strict: true }) : undefined}
      >
        {project ? (
          <>
            <Shown className="project-name" text={baseName(project)} strict lines="inline" />
            <Shown className="project-path" text={project} strict lines="inline" as="code" />
          </>
        ) : (
          <span className="muted">No project open</span>
        )}
      </div>
      <button
        type="button"
        className="secondary project-toggle"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setProjectListOpen(!open)}
      >
        {open ? 'Close project list' : 'Switch project'}
      </button>
      <div id={panelId} className="project-panel" hidden={!open}>
        <OpenFolder />
        {error ? (
          <p className="error" role="alert">
            <Shown text={error} />
          </p>
        ) : null}
        <h2 className="sidebar-heading">Recent projects</h2>
        <RecentProjects />
      </div>
    </section>
  );
}
