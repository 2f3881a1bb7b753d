import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_CHANNELS, ipcChannelName } from '../../../src/shared/api';
import type { ApiChannel, GatehouseApi } from '../../../src/shared/api';
import { parseBridgeError } from '../../../src/shared/ipc-envelope';
import { AppCore } from '../../../src/main/services/app/app-core';
import { answerIpcRequest } from '../../../src/main/shells/electron/ipc-answer';
import { createNodeWorkerHost } from '../../../src/main/services/worker-host/node-worker-host';
import type { WorkerSupervisor } from '../../../src/main/services/worker-host/supervisor';
import { createBridgeApi } from '../../../src/preload/bridge-api';
import { removeAfterWrites } from '../../support/remove-after-writes';

// The preload bridge wired to main's IPC answer exactly as Electron wires them (ipcRenderer.invoke -> ipcMain.handle),
// minus Electron: a real AppCore, a real worker process, real folders.

let base: string;
let project: string;
let worker: WorkerSupervisor;
let core: AppCore;
let senderIsApp = true;
const sent: Array<{ channel: string; payload: unknown }> = [];

const ipcChannelToApi = new Map(API_CHANNELS.map((c) => [ipcChannelName(c), c] as const));
function invoke(ipcChannel: string, payload: unknown): Promise<unknown> {
  sent.push({ channel: ipcChannel, payload });
  // Electron clones across processes: so do we, to be sure nothing relies on shared references.
  const cloned: unknown = payload === undefined ? undefined : structuredClone(payload);
  const channel = ipcChannelToApi.get(ipcChannel);
  if (!channel) return Promise.reject(new Error(`No handler registered for '${ipcChannel}'`));
  return answerIpcRequest(core.handlers, channel, cloned, senderIsApp).then((r) => structuredClone(r));
}

let api: GatehouseApi;

beforeAll(async () => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-bridge-')));
  project = path.join(base, 'project');
  fs.mkdirSync(project);
  worker = createNodeWorkerHost({ configDir: path.join(base, 'config') });
  core = new AppCore({
    shell: 'desktop',
    worker,
    configDir: path.join(base, 'config'),
    project: null,
    pickFolder: async () => project,
  });
  api = createBridgeApi(invoke, (listener) => core.onEvent(listener));
  await worker.start();
});

afterAll(async () => {
  await core.close(); // as the shell quits: the chat session ends, the background writes (recent projects) finish
  await worker.stop();
  await removeAfterWrites(base);
});

async function rejection(p: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await p;
  } catch (err) {
    return err as Error & { code?: string };
  }
  throw new Error('expected a rejection');
}

describe('the preload bridge over main IPC (no Electron)', () => {
  it('exposes exactly one named function per channel, plus onEvent, and is frozen', () => {
    expect(Object.keys(api).sort()).toEqual([...API_CHANNELS, 'onEvent'].sort());
    for (const key of Object.keys(api)) expect(typeof (api as Record<string, unknown>)[key]).toBe('function');
    expect(Object.isFrozen(api)).toBe(true);
    expect(api).not.toHaveProperty('invoke');
    expect(api).not.toHaveProperty('send');
  });

  it('each function calls its own IPC channel', async () => {
    sent.length = 0;
    await api.listRecentProjects({});
    expect(sent).toEqual([{ channel: 'gatehouse:listRecentProjects', payload: {} }]);
  });

  it('pings the live worker through main: a real pid, not ours', async () => {
    const info = await api.pingWorker({});
    expect(info.pid).toBeGreaterThan(0);
    expect(info.pid).not.toBe(process.pid);
    expect(() => process.kill(info.pid, 0)).not.toThrow();
    const app = await api.getAppInfo({});
    expect(app.shell).toBe('desktop');
    expect(app.worker.state).toBe('ready');
    expect(app.worker.info?.pid).toBe(info.pid);
  });

  it('opens a folder from the dialog and lists it as recent; events carry only the payload', async () => {
    const events: unknown[][] = [];
    const off = api.onEvent((...args: unknown[]) => events.push(args));
    const picked = await api.openFolderDialog({});
    expect(picked.path).toBe(project);
    await api.openProject({ path: project });
    expect((await api.listRecentProjects({})).paths[0]).toBe(project);
    expect(events).toContainEqual([{ type: 'projectChanged', path: project }]);
    off();
    await api.openProject({ path: project });
    expect(events.filter((e) => (e[0] as { type: string }).type === 'projectChanged')).toHaveLength(1);
  });

  it('rejects malformed payloads whole, with BAD_REQUEST in the message and the code', async () => {
    const call = (channel: ApiChannel, payload: unknown) => (api[channel] as (p: unknown) => Promise<unknown>)(payload);
    for (const bad of [
      { path: 42 },
      { path: '' },
      { path: 'x'.repeat(5000) },
      { path: project, extra: true },
      'string',
      [project],
      null,
    ]) {
      const err = await rejection(call('openProject', bad));
      expect(err.code, JSON.stringify(bad)).toBe('BAD_REQUEST');
      expect(err.message).toMatch(/^\[BAD_REQUEST\] openProject/);
      expect(parseBridgeError(new Error(`Error invoking remote method: Error: ${err.message}`)).code).toBe(
        'BAD_REQUEST',
      );
    }
    const err = await rejection(call('getAppInfo', { surprise: 1 }));
    expect(err.code).toBe('BAD_REQUEST');
  });

  it('reports a missing folder as NOT_FOUND, not as a crash', async () => {
    const err = await rejection(api.openProject({ path: path.join(base, 'nope') }));
    expect(err.code).toBe('NOT_FOUND');
    expect(core.currentProject()).toBe(project);
  });

  it('refuses every channel when the sender is not the app page, before any handler runs', async () => {
    senderIsApp = false;
    try {
      const before = core.recent.list();
      const other = path.join(base, 'other');
      fs.mkdirSync(other, { recursive: true });
      const err = await rejection(api.openProject({ path: other }));
      expect(err.code).toBe('FORBIDDEN');
      expect(core.recent.list()).toEqual(before);
      for (const channel of API_CHANNELS) {
        const e = await rejection((api[channel] as (p: unknown) => Promise<unknown>)({}));
        expect(e.code, channel).toBe('FORBIDDEN');
      }
    } finally {
      senderIsApp = true;
    }
  });

  it('answers an unknown channel with UNKNOWN_METHOD (main side)', async () => {
    const reply = await answerIpcRequest(core.handlers, 'constructor', {}, true);
    expect(reply).toEqual({ ok: false, error: { code: 'UNKNOWN_METHOD', message: expect.any(String) } });
    const proto = await answerIpcRequest(core.handlers, '__proto__', {}, true);
    expect(proto.ok).toBe(false);
  });
});

describe('createBridgeApi against a misbehaving main', () => {
  it('turns a malformed or thrown reply into an INTERNAL rejection', async () => {
    const weird = createBridgeApi(
      async () => ({ ok: 'yes', result: 1 }),
      () => () => undefined,
    );
    expect((await rejection(weird.getAppInfo({}))).code).toBe('INTERNAL');
    const throwing = createBridgeApi(
      async () => {
        throw new Error("Error invoking remote method 'gatehouse:getAppInfo': boom");
      },
      () => () => undefined,
    );
    const err = await rejection(throwing.getAppInfo({}));
    expect(err.code).toBe('INTERNAL');
    expect(err.message).toContain('boom');
  });

  it('drops malformed events instead of passing them on', () => {
    let push: (payload: unknown) => void = () => undefined;
    const bridge = createBridgeApi(
      async () => ({ ok: true, result: null }),
      (listener) => {
        push = listener;
        return () => undefined;
      },
    );
    const got: unknown[] = [];
    bridge.onEvent((e) => got.push(e));
    push({ type: 'projectChanged', path: '/x' });
    push({ type: 'evil', code: 'alert(1)' });
    push('string');
    push({ sender: {}, type: 'projectChanged' });
    expect(got).toEqual([{ type: 'projectChanged', path: '/x' }]);
  });

  it('reads codes back from bridge error messages, and only real codes', () => {
    expect(parseBridgeError(new Error('[FORBIDDEN] nope'))).toEqual({ code: 'FORBIDDEN', message: 'nope' });
    expect(parseBridgeError(new Error('[NOT_A_CODE] x'))).toEqual({ code: 'INTERNAL', message: '[NOT_A_CODE] x' });
    expect(parseBridgeError('plain')).toEqual({ code: 'INTERNAL', message: 'plain' });
  });
});
