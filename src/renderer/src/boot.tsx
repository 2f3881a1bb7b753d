import './zod-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiProvider } from './api/context';
import { createBridgeClient } from './api/create-client';
import { App } from './app/App';
import './styles.css';

/** The app itself, loaded by the page's entry (main.tsx) once the page knows it stays. */
export function boot(root: HTMLElement, token: string | null): void {
  createRoot(root).render(
    <StrictMode>
      <ApiProvider client={createBridgeClient(token)}>
        <App />
      </ApiProvider>
    </StrictMode>,
  );
}
