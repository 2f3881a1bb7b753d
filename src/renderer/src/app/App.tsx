import { useEffect } from 'react';
import { useApi, useApiEvent, useConnection } from '../api';
import { ChatPanel } from '../chat';
import { TrustFeature } from '../trust';
import { Header } from './Header';
import { LiveWorkerPanel } from './LiveWorkerPanel';
import { ProjectPanel } from './ProjectPanel';
import { applyEvent, loadShell, pingWorker, refreshRecent, useShell } from './store';

/** The shell around everything: header, the live worker, the project. Reloads its state on every (re)connection. */
export function App() {
  const api = useApi();
  const connection = useConnection();
  const loadError = useShell((s) => s.loadError);
  const connected = connection.status === 'open';

  useEffect(() => {
    if (!connected) return;
    void loadShell(api);
    void pingWorker(api);
  }, [api, connected]);

  useApiEvent((event) => {
    applyEvent(event);
    if (event.type === 'projectChanged') void refreshRecent(api);
    if (event.type === 'workerStatus' && event.status.state === 'ready') void pingWorker(api);
  });

  return (
    <>
      <Header />
      <main className="app-main">
        {loadError ? (
          <p className="error" role="alert">
            Could not load the app state: {loadError}
          </p>
        ) : null}
        <LiveWorkerPanel />
        <ProjectPanel />
        <ChatPanel />
        <TrustFeature />
      </main>
    </>
  );
}
