import fs from 'node:fs';
import path from 'node:path';
import type { BrowserWindow } from 'electron';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { dispatchApi } from '../../../src/main/services/app/api-dispatch';
import { AppCore } from '../../../src/main/services/app/app-core';
import { linkWindowEvents } from '../../../src/main/shells/electron/window-events';
import type { WorkerSupervisor } from '../../../src/main/services/worker-host/supervisor';
import { IPC_EVENT_CHANNEL } from '../../../src/shared/api';
import type { ApiEvent } from '../../../src/shared/api';
import { reply, startFakeAnthropic, text, toolUse } from '../../support/fake-anthropic';
import type { FakeAnthropic } from '../../support/fake-anthropic';
import { createFakeElectron } from './helpers/fake-electron';
import { makeAppDirs, modelEnv, startAppCore, TRUST_ALL } from '../../integration/agent-helpers';
import { removeAfterWrites } from '../../support/remove-after-writes';

// The desktop window as the core's page: a real AppCore, the real worker process (out/main/worker.js) and the
// loopback model, with the fake Electron's window. Closing the window or losing its renderer must deny the
// approval that waits, as the browser shell does when its socket closes.

const APP_PAGE = 'app://gatehouse/index.html';
let model: FakeAnthropic;
let root: string;
let project: string;
let worker: WorkerSupervisor;
let core: AppCore;

beforeAll(async () => {
  model = await startFakeAnthropic({ apiKey: 'sk-window-test' });
});
afterAll(async () => model.close());

beforeEach(async () => {
  const dirs = makeAppDirs('gh-window-close-', TRUST_ALL);
  ({ root, project } = dirs);
  ({ worker, core } = await startAppCore('desktop', dirs, modelEnv(root, model)));
});
afterEach(async () => {
  // As the shell quits: the chat session ends (its transcript closed) and the background writes finish (the recent
  // projects list would re-create the config folder), then the worker stops.
  await core.close();
  await worker.stop();
  await removeAfterWrites(root);
});

function openWindow() {
  const fake = createFakeElectron({ pickFolder: () => null });
  const window = new fake.electron.BrowserWindow({ webPreferences: {} });
  window.webContents.mainFrame.url = APP_PAGE;
  const unlink = linkWindowEvents(core, window as unknown as BrowserWindow, (url) => url === APP_PAGE);
  const events = (): ApiEvent[] =>
    window.webContents.sent.filter(([c]) => c === IPC_EVENT_CHANNEL).map(([, e]) => e as ApiEvent);
  return { window, unlink, events };
}

function waitFor<T>(get: () => T | undefined | Promise<T | undefined>, what: string): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await get();
      if (value === undefined) throw new Error(`timed out waiting for ${what}`);
      return value;
    },
    { timeout: 15_000 },
  );
}

/** Tool results the model got in its last request. */
function lastToolResults(): unknown[] {
  const msgs = model.requests[model.requests.length - 1]?.body.messages ?? [];
  const last = msgs[msgs.length - 1];
  return Array.isArray(last?.content) ? last.content.filter((b) => b.type === 'tool_result') : [];
}

async function askAndWait(id: string, file: string, events: () => ApiEvent[]): Promise<void> {
  model.enqueue(reply(toolUse(id, 'write_file', { path: file, content: 'x' })), reply(text('ok')));
  await dispatchApi(core.handlers, 'sendMessage', { text: `write ${file}` });
  await waitFor(() => events().find((e) => e.type === 'approvalRequest'), 'the approval request to reach the window');
}

describe('desktop window and waiting approvals', () => {
  it('closing the window denies the waiting approval: the model gets is_error, the file is not written', async () => {
    const { window, events } = openWindow();
    await askAndWait('w1', 'closed.txt', events);
    window.emit('closed');
    await waitFor(
      async () => ((await core.chat.state()).runningRunId === null ? true : undefined),
      'the run to finish',
    );
    expect(lastToolResults()).toEqual([expect.objectContaining({ tool_use_id: 'w1', is_error: true })]);
    expect(fs.existsSync(path.join(project, 'closed.txt'))).toBe(false);
    expect(model.pending()).toBe(0);
  });

  it('the renderer crashing denies it too; a page loaded again gets events again', async () => {
    const { window, events } = openWindow();
    await askAndWait('w2', 'crash.txt', events);
    window.webContents.emit('render-process-gone', {}, { reason: 'crashed', exitCode: 139 });
    await waitFor(
      async () => ((await core.chat.state()).runningRunId === null ? true : undefined),
      'the run to finish',
    );
    expect(lastToolResults()).toEqual([expect.objectContaining({ tool_use_id: 'w2', is_error: true })]);
    expect(fs.existsSync(path.join(project, 'crash.txt'))).toBe(false);

    // Reloaded after the crash: subscribed again, so an approval waits for its answer and "once" writes the file.
    window.webContents.emit('did-finish-load');
    const before = events().length;
    model.enqueue(reply(toolUse('w3', 'write_file', { path: 'again.txt', content: 'y' })), reply(text('done')));
    await dispatchApi(core.handlers, 'sendMessage', { text: 'write again.txt' });
    const ask = await waitFor(
      () =>
        events()
          .slice(before)
          .find((e): e is Extract<ApiEvent, { type: 'approvalRequest' }> => e.type === 'approvalRequest'),
      'a second approval',
    );
    expect(await dispatchApi(core.handlers, 'answerApproval', { requestId: ask.requestId, decision: 'once' })).toEqual({
      accepted: true,
    });
    await waitFor(
      async () => ((await core.chat.state()).runningRunId === null ? true : undefined),
      'the run to finish',
    );
    expect(fs.readFileSync(path.join(project, 'again.txt'), 'utf8')).toBe('y');
  });

  it('a watcher that is not a page (the desktop menu) does not keep an approval waiting', async () => {
    const seen: ApiEvent[] = [];
    core.watch((e) => seen.push(e));
    const { window, events } = openWindow();
    await askAndWait('w4', 'menu.txt', events);
    window.webContents.destroyed = true;
    window.webContents.emit('destroyed');
    await waitFor(
      async () => ((await core.chat.state()).runningRunId === null ? true : undefined),
      'the run to finish',
    );
    expect(lastToolResults()).toEqual([expect.objectContaining({ tool_use_id: 'w4', is_error: true })]);
    expect(seen.some((e) => e.type === 'approvalClosed')).toBe(true);
  });
});
