import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readTranscript } from '../../../src/main/core/session/transcript-reader';
import { ipcChannelName } from '../../../src/shared/api';
import { reply, startFakeAnthropic, toolUse } from '../../support/fake-anthropic';
import type { FakeAnthropic } from '../../support/fake-anthropic';
import { createFakeElectron } from './helpers/fake-electron';
import { loadMainBundle, quitApp } from './helpers/load-main';

// The built main (out/main/index.js) under a fake Electron, a real worker and the loopback model: a turn is running
// (one tool call finished, the model is still thinking) when the person quits, closes the last window or restarts to
// update. The app asks first; "Wait" leaves the turn running; "Stop it and quit" ends it, and the transcript on disk
// records it as cancelled with the finished tool call kept.

let model: FakeAnthropic;
let home: string;
let project: string;
let fake: ReturnType<typeof createFakeElectron>;
let restore: (() => void) | null = null;
let updater: FakeUpdater;
const savedEnv = { ...process.env };

/** electron-updater's autoUpdater: every check finds 0.2.0 and downloads it; quitAndInstall is recorded. */
class FakeUpdater extends EventEmitter {
  autoDownload = false;
  autoInstallOnAppQuit = false;
  allowDowngrade = true;
  logger: unknown = null;
  installs = 0;
  setFeedURL() {}
  async checkForUpdates() {
    this.emit('update-available', { version: '0.2.0' });
    this.emit('update-downloaded', { version: '0.2.0' });
    return null;
  }
  quitAndInstall() {
    this.installs++;
  }
}

beforeAll(async () => {
  model = await startFakeAnthropic({ apiKey: 'sk-quit-guard-test' });
});
afterAll(async () => model.close());

beforeEach(async () => {
  home = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-quit-')));
  project = path.join(home, 'project');
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, 'README.md'), '# the project\n');
  const config = path.join(home, 'config');
  fs.mkdirSync(config);
  fs.writeFileSync(
    path.join(config, 'settings.yaml'),
    'trust:\n  default: trust\nupdates:\n  url: https://updates.example.com/gatehouse/\n',
  );
  Object.assign(process.env, {
    GATEHOUSE_HOME: config,
    GATEHOUSE_LOGIN_SHELL_PATH: '0',
    HOME: home,
    ANTHROPIC_API_KEY: model.apiKey,
    ANTHROPIC_BASE_URL: model.baseURL,
  });
  delete process.env.ELECTRON_RENDERER_URL;
  fake = createFakeElectron({ pickFolder: () => null });
  updater = new FakeUpdater();
  restore = loadMainBundle(fake, ['/opt/Gatehouse/gatehouse-desktop', project], {
    'electron-updater': { autoUpdater: updater },
  });
  fake.app.fireReady();
  await expect.poll(() => fake.windows.length, { timeout: 10_000 }).toBe(1);
  const window = fake.windows[0]!;
  window.webContents.emit('did-finish-load'); // the page loaded: it answers approvals
  await expect.poll(async () => (await info()).project, { timeout: 10_000 }).toBe(project);
});

afterEach(async () => {
  await quitApp(fake);
  restore?.();
  restore = null;
  for (const key of Object.keys(process.env)) if (!(key in savedEnv)) delete process.env[key];
  Object.assign(process.env, savedEnv);
  fs.rmSync(home, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
});

async function callIpc<T>(name: string, payload: unknown = {}): Promise<T> {
  const contents = fake.windows[0]!.webContents;
  const handler = fake.ipcHandlers.get(ipcChannelName(name as never)) as unknown as (
    e: unknown,
    p: unknown,
  ) => Promise<{ ok: boolean; result?: T; error?: { message: string } }>;
  const answer = await handler({ senderFrame: contents.mainFrame, sender: contents }, payload);
  if (!answer.ok) throw new Error(`${name}: ${answer.error?.message}`);
  return answer.result as T;
}
const info = () => callIpc<{ project: string | null }>('getAppInfo');
const runningRunId = async () => (await callIpc<{ runningRunId: string | null }>('getChatState')).runningRunId;

/** A turn whose read_file call has finished, now waiting on a model that does not answer. */
async function startTurn(): Promise<string> {
  model.enqueue(reply(toolUse('read-1', 'read_file', { path: 'README.md' })), { kind: 'hang' });
  const before = model.requests.length;
  const { runId } = await callIpc<{ runId: string }>('sendMessage', { text: 'read the readme, then think' });
  await expect.poll(() => model.requests.length, { timeout: 15_000 }).toBe(before + 2);
  return runId;
}

/** Emits a preventable Electron event on `target`; says whether a listener prevented it. */
function emitPreventable(target: EventEmitter, name: string): boolean {
  let prevented = false;
  target.emit(name, { preventDefault: () => (prevented = true) });
  return prevented;
}

/** The one session's transcript as a resumed session reads it. */
async function transcript() {
  const dir = path.join(home, 'config', 'sessions');
  const [file] = fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  return readTranscript(path.join(dir, file!));
}

async function expectCancelledWithReadKept(runId: string): Promise<void> {
  const stored = await transcript();
  expect(stored.entries.filter((e) => e.type === 'result')).toEqual([
    expect.objectContaining({ type: 'result', runId, status: 'cancelled' }),
  ]);
  const blocks = stored.conversation.flatMap((m) => m.content);
  expect(blocks).toContainEqual(expect.objectContaining({ type: 'tool_use', id: 'read-1', name: 'read_file' }));
  expect(blocks).toContainEqual(
    expect.objectContaining({
      type: 'tool_result',
      tool_use_id: 'read-1',
      is_error: false,
      content: expect.stringContaining('# the project'),
    }),
  );
}

describe('a turn is running', () => {
  it('quitting asks; "Wait" keeps it running; "Stop it and quit" cancels it, records it, then quits', async () => {
    const runId = await startTurn();
    fake.answerMessageBoxes(0); // Wait
    expect(emitPreventable(fake.app, 'before-quit')).toBe(true);
    await expect.poll(() => fake.messageBoxes.length).toBe(1);
    expect(fake.messageBoxes[0]!.options).toMatchObject({
      type: 'warning',
      message: 'A run is in progress',
      buttons: ['Wait', 'Stop it and quit'],
    });
    expect(fake.messageBoxes[0]!.options.detail).toMatch(/records the turn as cancelled/);
    // Still running, a while after the answer: the model's request is still open and the chat says so.
    expect(await runningRunId()).toBe(runId);
    expect(fake.app.quits).toBe(0);

    fake.answerMessageBoxes(1); // Stop it and quit
    expect(emitPreventable(fake.app, 'before-quit')).toBe(true);
    await expect.poll(() => fake.app.quits, { timeout: 15_000 }).toBe(1);
    expect(fake.messageBoxes).toHaveLength(2);
    await expect(model.requests.at(-1)!.outcome).resolves.toBe('client-closed');
    await expectCancelledWithReadKept(runId);
    // The quit Electron then goes on with, and the window closing as it does, pass without asking again.
    expect(emitPreventable(fake.app, 'before-quit')).toBe(false);
    expect(fake.windows[0]!.close()).toBe(true);
    expect(fake.messageBoxes).toHaveLength(2);
  });

  it('closing the last window (Windows, Linux) asks the same; "Wait" keeps the window and the turn', async () => {
    const runId = await startTurn();
    const window = fake.windows[0]!;
    fake.answerMessageBoxes(0);
    expect(window.close()).toBe(false);
    await expect.poll(() => fake.messageBoxes.length).toBe(1);
    expect(window.isDestroyed()).toBe(false);
    expect(await runningRunId()).toBe(runId);

    fake.answerMessageBoxes(1);
    expect(window.close()).toBe(false);
    await expect.poll(() => fake.app.quits, { timeout: 15_000 }).toBe(1);
    await expectCancelledWithReadKept(runId);
  });

  it('"Restart to update" asks before the installer starts: "Wait" installs nothing, "Stop it and restart" does', async () => {
    expect(await callIpc('checkForUpdates')).toMatchObject({ state: 'ready', version: '0.2.0' });
    const runId = await startTurn();
    fake.answerMessageBoxes(0);
    expect(await callIpc('installUpdate')).toMatchObject({ state: 'ready' });
    expect(fake.messageBoxes.at(-1)!.options.buttons).toEqual(['Wait', 'Stop it and restart']);
    expect(updater.installs).toBe(0);
    expect(await runningRunId()).toBe(runId);

    fake.answerMessageBoxes(1);
    await callIpc('installUpdate');
    expect(updater.installs).toBe(1);
    await expectCancelledWithReadKept(runId);
  });

  it('with no turn running nothing is asked: the quit goes straight on', async () => {
    expect(emitPreventable(fake.app, 'before-quit')).toBe(false);
    expect(fake.windows[0]!.close()).toBe(true);
    expect(fake.messageBoxes).toHaveLength(0);
  });
});
