import { useEffect, useState } from 'react';
import { useApi, useApiEvent, useConnection } from '../api';
import { ChatPanel } from '../chat';
import { RulesView } from '../rules';
import { SandboxBanner } from '../sandbox';
import { focusSettingsHeading, SettingsView, useSettingsShortcut, useSettingsSync } from '../settings';
import { TrustFeature } from '../trust';
import { Header } from './Header';
import { LiveWorkerPanel } from './LiveWorkerPanel';
import { ProjectPanel } from './ProjectPanel';
import { applyEvent, loadShell, pingWorker, refreshRecent, useShell } from './store';
import { LinkConfirmHost, Shown } from '../display';

/** The shell around everything: header, the live worker, the project. Reloads its state on every (re)connection. */
export function App() {
  const api = useApi();
  const connection = useConnection();
  const loadError = useShell((s) => s.loadError);
  const connected = connection.status === 'open';
  const [view, setView] = useState<'chat' | 'rules' | 'settings'>('chat');
  const openSettings = (): void => {
    setView('settings');
    focusSettingsHeading();
  };
  useSettingsSync();
  useSettingsShortcut(openSettings);

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
    if (event.type === 'approvalRequest') setView('chat');
    if (event.type === 'showView') {
      if (event.view === 'settings') openSettings();
      else setView(event.view);
    }
  });

  return (
    <>
      <Header onOpenSettings={openSettings} />
      <SandboxBanner />
      <main className="app-main">
        {loadError ? (
          <p className="error" role="alert">
            <Shown text={`Could not load the app state: ${loadError}`} />
          </p>
        ) : null}
        <LiveWorkerPanel />
        <ProjectPanel />
        <nav className="view-tabs" aria-label="Views" style={{ gridColumn: '1 / -1' }}>
          <button type="button" aria-pressed={view === 'chat'} onClick={() => setView('chat')}>
            Chat
          </button>
          <button type="button" aria-pressed={view === 'rules'} onClick={() => setView('rules')}>
            Rules
          </button>
          <button type="button" aria-pressed={view === 'settings'} onClick={() => setView('settings')}>
            Settings
          </button>
        </nav>
        {/* Chat stays mounted (its session and approvals live on) while the Rules view is shown. */}
        <div style={{ display: view === 'chat' ? 'contents' : 'none' }}>
          <ChatPanel />
        </div>
        {view === 'rules' ? (
          <div style={{ gridColumn: '1 / -1' }}>
            <RulesView />
          </div>
        ) : null}
        {view === 'settings' ? (
          <div style={{ gridColumn: '1 / -1' }}>
            <SettingsView />
          </div>
        ) : null}
        <TrustFeature />
        <LinkConfirmHost />
      </main>
    </>
  );
}
