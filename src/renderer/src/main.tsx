import './zod-config';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiProvider, createBridgeClient } from './api';
import { App } from './app/App';
import { applyCachedTheme } from './settings';
import './styles.css';

const root = document.getElementById('root');
// The last theme, before anything paints (the settings confirm it once they load).
applyCachedTheme();
// In the browser shell the first load only moves the token out of the URL and loads the page again (null).
const client = createBridgeClient();
if (root && client) {
  createRoot(root).render(
    <StrictMode>
      <ApiProvider client={client}>
        <App />
      </ApiProvider>
    </StrictMode>,
  );
}
