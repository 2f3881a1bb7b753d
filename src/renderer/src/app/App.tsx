import { useEffect } from 'react';
import { useApi, useApiEvent, useConnection } from '../api/context';
import { AuditView } from '../audit/AuditView';
import { ChatPanel } from '../chat/ChatPanel';
import { HooksView } from '../hooks/HooksView';
import { McpView } from '../mcp/McpView';
import { LinkConfirmHost } from '../display/ExternalLink';
import { Shown } from '../display/Shown';
import { RulesView } from '../rules/RulesView';
import { SandboxBanner } from '../sandbox/SandboxBanner';
import { SkillsView } from '../skills/SkillsView';
import { focusSettingsHeading, useSettingsShortcut, useSettingsSync } from '../settings/settings-sync';
import { SettingsView } from '../settings/SettingsView';
import { ProjectTrustedFolders, TrustFeature } from '../trust/TrustFeature';
import { AboutDialog } from './AboutDialog';
import { useApprovalNotifications } from './notifications';
import { Sidebar } from './Sidebar';
import { isCollapsed, useSidebar, useSidebarControls } from './sidebar-store';
import { StatusBar } from './StatusBar';
import { applyEvent, loadShell, pingWorker, refreshRecent, useShell } from './store';
import { setAboutOpen, showView, useView } from './view-store';
import './layout.css';
import './reflow.css';

/**
 * The window: the sidebar (project, sessions, views) and the main area. The chat fills the main area (its
 * transcript scrolls, the composer stays at the bottom); other views scroll inside it. The document never scrolls.
 * Reloads its state on every (re)connection.
 */
export function App() {
  const api = useApi();
  const connection = useConnection();
  const loadError = useShell((s) => s.loadError);
  const connected = connection.status === 'open';
  const view = useView((s) => s.view);
  const about = useView((s) => s.about);
  const sidebarCollapsed = useSidebar(isCollapsed);
  const openSettings = (): void => {
    showView('settings');
    focusSettingsHeading();
  };
  useSettingsSync();
  useSettingsShortcut(openSettings);
  useApprovalNotifications();
  useSidebarControls();

  useEffect(() => {
    if (!connected) return;
    void loadShell(api);
    void pingWorker(api);
  }, [api, connected]);

  useApiEvent((event) => {
    applyEvent(event);
    if (event.type === 'projectChanged') void refreshRecent(api);
    if (event.type === 'workerStatus' && event.status.state === 'ready') void pingWorker(api);
    // An approval must never wait unseen behind another view: bring the chat (and its dialog) forward.
    if (event.type === 'approvalRequest') showView('chat');
    if (event.type === 'showView') {
      if (event.view === 'settings') openSettings();
      else if (event.view === 'about') setAboutOpen(true);
      else showView(event.view);
    }
  });

  return (
    <div className="app-shell" data-sidebar={sidebarCollapsed ? 'collapsed' : 'expanded'}>
      <Sidebar />
      <div className="app-column">
        <SandboxBanner />
        {loadError ? (
          <p className="error app-load-error" role="alert">
            <Shown text={`Could not load the app state: ${loadError}`} />
          </p>
        ) : null}
        <main className="app-main">
          {/* Chat stays mounted (its session and approvals live on) while another view is shown. */}
          <div className="view-chat" hidden={view !== 'chat'}>
            <ChatPanel />
          </div>
          {view === 'rules' ? (
            <div className="view-page">
              <RulesView />
            </div>
          ) : null}
          {view === 'hooks' ? (
            <div className="view-page">
              <HooksView />
            </div>
          ) : null}
          {view === 'mcp' ? (
            <div className="view-page">
              <McpView />
            </div>
          ) : null}
          {view === 'skills' ? (
            <div className="view-page">
              <SkillsView />
            </div>
          ) : null}
          {view === 'trust' ? (
            <div className="view-page">
              <ProjectTrustedFolders />
            </div>
          ) : null}
          {view === 'audit' ? (
            <div className="view-page">
              <AuditView />
            </div>
          ) : null}
          {view === 'settings' ? (
            <div className="view-page">
              <SettingsView />
            </div>
          ) : null}
        </main>
        <StatusBar />
      </div>
      <TrustFeature showFolders={false} />
      <LinkConfirmHost />
      {about ? <AboutDialog onClose={() => setAboutOpen(false)} /> : null}
    </div>
  );
}
