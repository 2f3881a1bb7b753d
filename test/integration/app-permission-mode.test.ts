import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppCore } from '../../src/main/services/app/app-core';
import { dispatchApi } from '../../src/main/services/app/api-dispatch';
import { createNodeWorkerHost } from '../../src/main/services/worker-host/node-worker-host';
import type { WorkerSupervisor } from '../../src/main/services/worker-host/supervisor';
import type { ApiEvent } from '../../src/shared/api';
import type { PermissionModeState } from '../../src/shared/modes-contract';
import { reply, startFakeAnthropic, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { makeAppDirs, modelEnv } from './agent-helpers';
import { removeAfterWrites } from '../support/remove-after-writes';
import { codeCacheEnv } from '../support/code-cache-env';

// The chat session's permission mode through AppCore's handlers (the socket's and IPC's entry), with the real
// worker, the real engine and the loopback model server.

let fake: FakeAnthropic;
let root: string;
let project: string;
let configDir: string;
let worker: WorkerSupervisor;
let core: AppCore;
let events: ApiEvent[];
/**
 * Every core a test made: each writes the recent projects list (and trust's last-opened) in the background when it
 * opens the project, and one still under way would re-create the config folder after its removal.
 */
const cores: AppCore[] = [];

beforeAll(async () => {
  fake = await startFakeAnthropic({ apiKey: 'sk-mode-secret' });
});
afterAll(async () => fake.close());

function start(userSettings: string): void {
  fs.writeFileSync(path.join(configDir, 'settings.yaml'), userSettings);
  const env = modelEnv(root, fake);
  core = new AppCore({ shell: 'browser', worker, configDir, project, env });
  cores.push(core);
  events = [];
  core.onEvent((e) => events.push(e));
}

beforeEach(async () => {
  expect(fake.pending()).toBe(0);
  ({ root, project, configDir } = makeAppDirs('gatehouse-app-mode-'));
  worker = createNodeWorkerHost({ configDir, env: { PATH: process.env.PATH, HOME: root, ...codeCacheEnv() } });
  await worker.start();
});
afterEach(async () => {
  for (const c of cores.splice(0)) await c.close(); // as the shell quits: the chat session ends, background writes finish
  await worker.stop();
  await removeAfterWrites(root);
});

const call = (channel: string, payload: unknown = {}): Promise<unknown> => dispatchApi(core.handlers, channel, payload);
const modeState = async (): Promise<PermissionModeState> => (await call('getPermissionMode')) as PermissionModeState;
const finished = (): Promise<void> =>
  expect.poll(async () => (await core.chat.state()).runningRunId, { timeout: 15_000 }).toBeNull();

describe('the chat session permission mode', () => {
  it('acceptEdits chosen for the session: a write the model asks for runs without an approval', async () => {
    start('trust:\n  default: trust\n');
    expect(await modeState()).toMatchObject({
      mode: 'default',
      source: 'default',
      settingsFile: null,
      trusted: true,
      bypassUnavailable: null,
      autoUnavailable: null,
    });
    expect(await call('setPermissionMode', { mode: 'acceptEdits' })).toMatchObject({
      mode: 'acceptEdits',
      source: 'session',
      settingsMode: 'default',
    });
    fake.enqueue(reply(toolUse('w1', 'write_file', { path: 'a.txt', content: 'accepted\n' })), reply(text('written')));
    await call('sendMessage', { text: 'write a.txt' });
    await finished();
    expect(fs.readFileSync(path.join(project, 'a.txt'), 'utf8')).toBe('accepted\n');
    expect(events.some((e) => e.type === 'approvalRequest')).toBe(false);
    const decided = events.filter((e) => e.type === 'agent' && e.event.type === 'tool_call_decided');
    expect(decided).toHaveLength(1);
    expect(decided[0]).toMatchObject({
      event: { id: 'w1', allow: true, source: 'mode', reason: expect.stringContaining('acceptEdits') },
    });
    expect(decided[0]).not.toHaveProperty('event.asked');
    // Cleared: back to the settings' mode, and the next write asks.
    expect(await call('setPermissionMode', { mode: null })).toMatchObject({ mode: 'default', source: 'default' });
  });

  it('a stricter session mode than the settings: the write asks, and "Deny" stays a deny', async () => {
    start('trust:\n  default: trust\npermissions:\n  mode: acceptEdits\n');
    expect(await modeState()).toMatchObject({
      mode: 'acceptEdits',
      source: 'settings',
      settingsFile: path.join(configDir, 'settings.yaml'),
    });
    await call('setPermissionMode', { mode: 'default' });
    fake.enqueue(reply(toolUse('w2', 'write_file', { path: 'b.txt', content: 'no\n' })), reply(text('ok')));
    await call('sendMessage', { text: 'write b.txt' });
    await expect.poll(() => events.find((e) => e.type === 'approvalRequest'), { timeout: 15_000 }).toBeDefined();
    const ask = events.find((e): e is Extract<ApiEvent, { type: 'approvalRequest' }> => e.type === 'approvalRequest')!;
    expect(ask).toMatchObject({ source: 'mode', reason: expect.stringContaining('default mode') });
    await call('answerApproval', { requestId: ask.requestId, decision: 'deny' });
    await finished();
    expect(fs.existsSync(path.join(project, 'b.txt'))).toBe(false);
    const decided = events.filter((e) => e.type === 'agent' && e.event.type === 'tool_call_decided');
    expect(decided).toEqual([
      expect.objectContaining({
        event: expect.objectContaining({
          id: 'w2',
          allow: false,
          source: 'approval',
          asked: expect.objectContaining({ source: 'mode' }),
          answer: { choice: 'deny' },
        }),
      }),
    ]);
  });

  it('bypass is refused in an untrusted project (a forged request changes nothing)', async () => {
    start('trust:\n  default: ask\n');
    const before = await modeState();
    expect(before).toMatchObject({ trusted: false, bypassUnavailable: expect.stringMatching(/not trusted/) });
    await expect(call('setPermissionMode', { mode: 'bypassPermissions' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringMatching(/bypass is unavailable.*not trusted/),
    });
    expect(await modeState()).toEqual(before);
    for (const bad of [{ mode: 'yolo' }, { mode: 'bypassPermissions', extra: true }, {}]) {
      await expect(call('setPermissionMode', bad)).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    }
    expect(await modeState()).toEqual(before);
  });

  it('auto is refused in an untrusted project like bypass, and ends when trust is revoked', async () => {
    start('trust:\n  default: ask\n');
    const before = await modeState();
    expect(before).toMatchObject({ trusted: false, autoUnavailable: expect.stringMatching(/not trusted/) });
    await expect(call('setPermissionMode', { mode: 'auto' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringMatching(/auto is unavailable.*not trusted/),
    });
    expect(await modeState()).toEqual(before);
    await call('setTrust', { path: project, scope: 'directory' });
    expect(await call('setPermissionMode', { mode: 'auto' })).toMatchObject({
      mode: 'auto',
      source: 'session',
      autoUnavailable: null,
    });
    await call('revokeTrust', { path: project });
    expect(events.find((e) => e.type === 'permissionModeChanged')).toMatchObject({
      state: { mode: 'default', trusted: false },
      reason: expect.stringMatching(/no longer trusted: auto ended/),
    });
  });

  it('revoking trust while in bypass drops the session to the settings mode at once', async () => {
    start('trust:\n  default: ask\npermissions:\n  mode: strict\n');
    await call('setTrust', { path: project, scope: 'directory' });
    expect(await call('setPermissionMode', { mode: 'bypassPermissions' })).toMatchObject({
      mode: 'bypassPermissions',
      source: 'session',
    });
    await call('revokeTrust', { path: project });
    const changed = events.find((e) => e.type === 'permissionModeChanged');
    expect(changed).toMatchObject({
      state: { mode: 'strict', source: 'settings', trusted: false },
      reason: expect.stringMatching(/no longer trusted/),
    });
    expect(await modeState()).toMatchObject({ mode: 'strict', source: 'settings' });
  });

  it('trust revoked behind the app\u2019s back (another process): bypass ends before the next call', async () => {
    start('trust:\n  default: ask\n');
    await call('setTrust', { path: project, scope: 'directory' });
    await call('setPermissionMode', { mode: 'bypassPermissions' });
    fake.enqueue(reply(toolUse('w3', 'write_file', { path: 'c.txt', content: 'x' })), reply(text('done')));
    // The trust file changes on disk without going through the app's handlers (like `gatehouse trust revoke`).
    const other = new AppCore({
      shell: 'browser',
      worker,
      configDir,
      project,
      env: { PATH: process.env.PATH, HOME: root },
    });
    cores.push(other);
    await dispatchApi(other.handlers, 'revokeTrust', { path: project });
    await call('sendMessage', { text: 'write c.txt' });
    await expect.poll(() => events.find((e) => e.type === 'approvalRequest'), { timeout: 15_000 }).toBeDefined();
    const ask = events.find((e): e is Extract<ApiEvent, { type: 'approvalRequest' }> => e.type === 'approvalRequest')!;
    expect(ask.source).toBe('trust');
    expect(events.find((e) => e.type === 'permissionModeChanged')).toMatchObject({
      state: { mode: 'default', source: 'default' },
    });
    await call('answerApproval', { requestId: ask.requestId, decision: 'deny' });
    await finished();
    expect(fs.existsSync(path.join(project, 'c.txt'))).toBe(false);
  });
});
