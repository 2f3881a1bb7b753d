// The preload bridge, bundled into one CommonJS file (out/preload/index.cjs): a sandboxed preload can require
// nothing but 'electron'. It exposes `window.gatehouse`, generated from the contract (see bridge-api.ts).
import type { IpcRendererEvent } from 'electron';
import { contextBridge, ipcRenderer } from 'electron';
import { z } from 'zod';
import { IPC_EVENT_CHANNEL } from '../shared/api';
import { createBridgeApi, createEventHub } from './bridge-api';

// The page's CSP forbids eval: tell zod not to try its eval-compiled fast path (it would log a CSP violation).
z.config({ jitless: true });

// One listener from the start, so an event sent before the page subscribes (showView) is not lost; listeners get
// the payload only, never the IpcRendererEvent.
const events = createEventHub();
ipcRenderer.on(IPC_EVENT_CHANNEL, (_event: IpcRendererEvent, payload: unknown) => events.deliver(payload));

const api = createBridgeApi((channel, payload) => ipcRenderer.invoke(channel, payload), events.subscribe);

contextBridge.exposeInMainWorld('gatehouse', api);
