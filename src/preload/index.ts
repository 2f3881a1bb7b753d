// The preload bridge, bundled into one CommonJS file (out/preload/index.cjs): a sandboxed preload can require
// nothing but 'electron'. It exposes `window.gatehouse`, generated from the contract (see bridge-api.ts).
import type { IpcRendererEvent } from 'electron';
import { contextBridge, ipcRenderer } from 'electron';
import { z } from 'zod';
import { IPC_EVENT_CHANNEL } from '../shared/api';
import { createBridgeApi } from './bridge-api';

// The page's CSP forbids eval: tell zod not to try its eval-compiled fast path (it would log a CSP violation).
z.config({ jitless: true });

const api = createBridgeApi(
  (channel, payload) => ipcRenderer.invoke(channel, payload),
  (listener) => {
    const onEvent = (_event: IpcRendererEvent, payload: unknown): void => listener(payload);
    ipcRenderer.on(IPC_EVENT_CHANNEL, onEvent);
    return () => {
      ipcRenderer.removeListener(IPC_EVENT_CHANNEL, onEvent);
    };
  },
);

contextBridge.exposeInMainWorld('gatehouse', api);
