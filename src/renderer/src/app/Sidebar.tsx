import { SessionList } from '../chat';
import { ProjectSwitcher } from './ProjectSwitcher';
import { setAboutOpen, showView, useView, VIEW_LABELS } from './view-store';
import type { View } from './view-store';

const VIEWS: readonly View[] = ['chat', 'rules', 'hooks', 'mcp', 'skills', 'trust', 'audit', 'settings'];

/** The views of the main area; the current one is marked (aria-current). */
function ViewLinks() {
  const view = useView((s) => s.view);
  return (
    <ul className="sidebar-links" aria-label="Views">
      {VIEWS.map((v) => (
        <li key={v}>
          <button
            type="button"
            className="sidebar-link"
            aria-current={v === view ? 'page' : undefined}
            onClick={() => showView(v)}
            {...(v === 'settings' ? { 'aria-keyshortcuts': 'Control+, Meta+,', title: 'Settings (Ctrl+,)' } : {})}
          >
            {VIEW_LABELS[v]}
          </button>
        </li>
      ))}
    </ul>
  );
}

/**
 * The sidebar (a navigation landmark): the project switcher, the project's sessions, the views and Help › About.
 */
export function Sidebar() {
  return (
    <nav className="sidebar" aria-label="Sidebar">
      <div className="sidebar-brand">
        <h1>Gatehouse</h1>
      </div>
      <ProjectSwitcher />
      <SessionList />
      <ViewLinks />
      <div className="sidebar-foot">
        <button type="button" className="sidebar-link" aria-haspopup="dialog" onClick={() => setAboutOpen(true)}>
          Help › About Gatehouse
        </button>
      </div>
    </nav>
  );
}
