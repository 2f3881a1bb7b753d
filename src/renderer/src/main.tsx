import './zod-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiProvider, createBridgeClient } from './api';
import { App } from './app/App';
import './styles.css';

const root = document.getElementById('root');
if (root) {
  const client = createBridgeClient();
  createRoot(root).render(
    <StrictMode>
      <ApiProvider client={client}>
        <App />
      </ApiProvider>
    </StrictMode>,
  );
}
