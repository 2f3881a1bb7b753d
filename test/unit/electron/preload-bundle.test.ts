import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_CHANNELS, IPC_EVENT_CHANNEL, ipcChannelName } from '../../../src/shared/api';

// The built preload (npm run build -> out/preload/index.cjs), run the way a sandboxed preload runs: a CommonJS
// function whose `require` knows only 'electron'.
const bundle = path.resolve(__dirname, '../../../out/preload/index.cjs');
let code: string;

beforeAll(() => {
  if (!fs.existsSync(bundle)) throw new Error(`${bundle} is missing: run \`npm run build\` first`);
  code = fs.readFileSync(bundle, 'utf8');
});

interface Loaded {
  exposed: Map<string, unknown>;
  invoked: Array<[string, unknown]>;
  ipc: EventEmitter;
  required: string[];
}

function loadPreload(reply: (channel: string, payload: unknown) => unknown): Loaded {
  const exposed = new Map<string, unknown>();
  const invoked: Array<[string, unknown]> = [];
  const required: string[] = [];
  const ipc = new EventEmitter();
  const electron = {
    contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) },
    ipcRenderer: {
      invoke: async (channel: string, payload: unknown) => {
        invoked.push([channel, payload]);
        return reply(channel, payload);
      },
      on: (channel: string, l: (...args: unknown[]) => void) => ipc.on(channel, l),
      removeListener: (channel: string, l: (...args: unknown[]) => void) => ipc.removeListener(channel, l),
    },
  };
  const sandboxRequire = (name: string): unknown => {
    required.push(name);
    if (name === 'electron') return electron;
    throw new Error(`a sandboxed preload cannot require "${name}"`);
  };
  const module = { exports: {} };
  const wrapper = vm.runInNewContext(
    `(function (exports, require, module, __filename, __dirname) {${code}\n})`,
    { console, queueMicrotask },
    { filename: bundle },
  );
  (wrapper as (...a: unknown[]) => void)(module.exports, sandboxRequire, module, bundle, path.dirname(bundle));
  return { exposed, invoked, ipc, required };
}

describe('out/preload/index.cjs', () => {
  it('is one CommonJS file whose only require is electron', () => {
    const requires = [...code.matchAll(/\brequire\s*\(\s*([^)]*)\)/g)].map((m) => m[1]);
    expect(requires).toEqual(['"electron"']);
    expect(code).not.toMatch(/^\s*import\s/m);
    expect(code).not.toMatch(/^\s*export\s/m);
    expect(code).not.toMatch(/\bimport\s*\(/);
    expect(
      fs.readdirSync(path.dirname(bundle)).filter((f) => f.endsWith('.js') || f.endsWith('.cjs') || f.endsWith('.mjs')),
    ).toEqual(['index.cjs']);
  });

  it('runs with a require that knows only electron and exposes window.gatehouse alone', () => {
    const { exposed, required } = loadPreload(() => ({ ok: true, result: null }));
    expect([...new Set(required)]).toEqual(['electron']);
    expect([...exposed.keys()]).toEqual(['gatehouse']);
    const api = exposed.get('gatehouse') as Record<string, unknown>;
    expect(Object.keys(api).sort()).toEqual([...API_CHANNELS, 'onEvent'].sort());
    expect(JSON.stringify(Object.keys(api))).not.toMatch(/"(ipcRenderer|invoke|send|sendSync)"/);
  });

  it('calls each channel over its own IPC name and unwraps the envelope', async () => {
    const { exposed, invoked } = loadPreload((channel) =>
      channel === ipcChannelName('listRecentProjects')
        ? { ok: true, result: { paths: ['/a'] } }
        : { ok: false, error: { code: 'FORBIDDEN', message: 'no' } },
    );
    const api = exposed.get('gatehouse') as Record<string, (p?: unknown) => Promise<unknown>>;
    await expect(api.listRecentProjects!({})).resolves.toEqual({ paths: ['/a'] });
    await expect(api.openProject!({ path: '/x' })).rejects.toThrow('[FORBIDDEN] no');
    await expect(api.getAppInfo!()).rejects.toThrow('[FORBIDDEN]');
    expect(invoked).toEqual([
      ['gatehouse:listRecentProjects', {}],
      ['gatehouse:openProject', { path: '/x' }],
      ['gatehouse:getAppInfo', {}],
    ]);
  });

  it('passes only the event payload to listeners, never the IpcRendererEvent, and unsubscribes', () => {
    const { exposed, ipc } = loadPreload(() => ({ ok: true, result: null }));
    const api = exposed.get('gatehouse') as { onEvent: (l: (...a: unknown[]) => void) => () => void };
    const got: unknown[][] = [];
    const off = api.onEvent((...args) => got.push(args));
    const fakeEvent = { sender: { send: () => undefined }, ports: [] };
    ipc.emit(IPC_EVENT_CHANNEL, fakeEvent, { type: 'projectChanged', path: '/p' });
    ipc.emit(IPC_EVENT_CHANNEL, fakeEvent, { type: 'bogus' });
    expect(got).toEqual([[{ type: 'projectChanged', path: '/p' }]]);
    off();
    ipc.emit(IPC_EVENT_CHANNEL, fakeEvent, { type: 'projectChanged', path: '/q' });
    expect(got).toHaveLength(1);
  });

  it("keeps a showView sent before the page listens (a window the View menu opened) for the page's first listener", async () => {
    const { exposed, ipc } = loadPreload(() => ({ ok: true, result: null }));
    const api = exposed.get('gatehouse') as { onEvent: (l: (e: unknown) => void) => () => void };
    const fakeEvent = { sender: { send: () => undefined }, ports: [] };
    ipc.emit(IPC_EVENT_CHANNEL, fakeEvent, { type: 'showView', view: 'rules' });
    ipc.emit(IPC_EVENT_CHANNEL, fakeEvent, { type: 'showView', view: 'settings' });
    ipc.emit(IPC_EVENT_CHANNEL, fakeEvent, { type: 'projectChanged', path: '/p' });
    const first: unknown[] = [];
    const second: unknown[] = [];
    api.onEvent((e) => first.push(e));
    await Promise.resolve();
    api.onEvent((e) => second.push(e));
    await Promise.resolve();
    // The newest view only, once, to the first listener; events other than showView are not replayed.
    expect(first).toEqual([{ type: 'showView', view: 'settings' }]);
    expect(second).toEqual([]);
    ipc.emit(IPC_EVENT_CHANNEL, fakeEvent, { type: 'showView', view: 'chat' });
    expect(first).toHaveLength(2);
    expect(second).toEqual([{ type: 'showView', view: 'chat' }]);
  });
});
