import { SessionList } from '../chat/SessionList';
import { shownText } from '../display/Shown';
import { baseName, ProjectSwitcher } from './ProjectSwitcher';
import { SidebarIcon, viewIcon } from './sidebar-icons';
import { isCollapsed, setProjectListOpen, SIDEBAR_KEYS, toggleSidebar, useSidebar } from './sidebar-store';
import { useShell } from './store';
import { setAboutOpen, showView, useView, VIEW_LABELS } from './view-store';
import type { View } from './view-store';

const VIEWS: readonly View[] = ['chat', 'rules', 'hooks', 'mcp', 'skills', 'trust', 'audit', 'settings'];

/**
 * The views of the main area; the current one is marked (aria-current). Each is an icon and its name: a collapsed
 * sidebar hides the name from sight only (it stays the button's accessible name) and shows it as a tooltip.
 */
function ViewLinks({ collapsed }: { collapsed: boolean }) {
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
            title={v === 'settings' ? 'Settings (Ctrl+,)' : collapsed ? VIEW_LABELS[v] : undefined}
            {...(v === 'settings' ? { 'aria-keyshortcuts': 'Control+, Meta+,' } : {})}
          >
            <SidebarIcon name={viewIcon(v)} />
            <span className="sidebar-label">{VIEW_LABELS[v]}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}

/** A collapsed sidebar's way to the project switcher: expands the sidebar with the project list open. */
function ProjectButton() {
  const project = useShell((s) => s.info?.project ?? null);
  const label = project ? shownText(`Switch project (open: ${baseName(project)})`, { strict: true }) : 'Switch project';
  return (
    <button
      type="button"
      className="sidebar-link"
      title={shownText(label)}
      onClick={() => {
        toggleSidebar();
        setProjectListOpen(true);
      }}
    >
      <SidebarIcon name="project" />
      <span className="sidebar-label">{shownText(label)}</span>
    </button>
  );
}

/** Collapses the sidebar to icons and back (also Ctrl+B); the choice is remembered. */
function SidebarToggle({ collapsed }: { collapsed: boolean }) {
  return (
    <button
      type="button"
      className="icon-button sidebar-toggle"
      aria-keyshortcuts={SIDEBAR_KEYS}
      title={collapsed ? 'Expand sidebar (Ctrl+B)' : 'Collapse sidebar (Ctrl+B)'}
      onClick={toggleSidebar}
    >
      <SidebarIcon name={collapsed ? 'expand' : 'collapse'} />
      <span className="visually-hidden">{collapsed ? 'Expand sidebar' : 'Collapse sidebar'}</span>
    </button>
  );
}

/**
 * The sidebar (a navigation landmark): the project switcher, the project's sessions, the views and Help › About.
 * Collapsed (a narrow window, or the toggle), it shows the toggle, New session, the views and Help as icons.
 */
export function Sidebar() {
  const collapsed = useSidebar(isCollapsed);
  return (
    <nav className="sidebar" aria-label="Sidebar" data-collapsed={collapsed ? 'true' : undefined}>
      <div className="sidebar-brand">
        <h1 className="sidebar-label">Gatehouse</h1>
        <SidebarToggle collapsed={collapsed} />
      </div>
      {collapsed ? <ProjectButton /> : <ProjectSwitcher />}
      <SessionList compact={collapsed} />
      <ViewLinks collapsed={collapsed} />
      <div className="sidebar-foot">
        <button
          type="button"
          className="sidebar-link"
          aria-haspopup="dialog"
          title={collapsed ? 'Help › About Gatehouse' : undefined}
          onClick={() => setAboutOpen(true)}
        >
          <SidebarIcon name="help" />
          <span className="sidebar-label">Help › About Gatehouse</span>
        </button>
      </div>
    </nav>
  );
}
