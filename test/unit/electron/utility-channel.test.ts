import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelFromUtilityProcess } from '../../../src/main/shells/electron/utility-channel';
import { buildWorkerEnv } from '../../../src/main/services/worker-host/worker-env';
import { workerEntryPath } from '../../../src/main/services/worker-host/worker-entry';
import { WorkerSupervisor } from '../../../src/main/services/worker-host/supervisor';
import type { WorkerLauncher } from '../../../src/main/core/worker-host-types';
import { NodeAsUtilityProcess } from './helpers/node-utility-process';

let base: string;
beforeAll(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-utility-')));
});
afterAll(() => fs.rmSync(base, { recursive: true, force: true }));

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** test/fixtures/workers/stubborn.cjs (notes SIGTERM, does not exit on it) on a channel, once it said it is up. */
async function stubborn(killGraceMs: number) {
  const child = new NodeAsUtilityProcess(path.resolve('test/fixtures/workers/stubborn.cjs'), {});
  const output: string[] = [];
  const ch = channelFromUtilityProcess(child, { killGraceMs, onOutput: (t) => output.push(t) });
  await new Promise<void>((r) => ch.onMessage(() => r()));
  return { ch, output };
}

describe('channelFromUtilityProcess', () => {
  it('runs the real worker bundle under the supervisor: handshake, request, restart after a crash', async () => {
    const output: string[] = [];
    const launcher: WorkerLauncher = {
      runtime: 'electron',
      launch: (entry, env) =>
        channelFromUtilityProcess(new NodeAsUtilityProcess(entry, env), { onOutput: (t) => output.push(t) }),
    };
    const host = new WorkerSupervisor({
      launcher,
      entry: workerEntryPath(),
      env: buildWorkerEnv(process.env, { GATEHOUSE_HOME: base }),
      backoffBaseMs: 20,
    });
    try {
      await host.start();
      const first = await host.request('echo', { value: 'über 🚪' });
      expect(first.value).toBe('über 🚪');
      const info = await host.request('info', {});
      expect(info.pid).not.toBe(process.pid);
      // A crash mid-request: typed error, then a fresh worker answers.
      const inFlight = host.request('delay', { ms: 5_000 });
      process.kill(info.pid, 'SIGKILL');
      await expect(inFlight).rejects.toMatchObject({ code: 'WORKER_CRASHED' });
      await expect.poll(() => host.status().state).toBe('ready');
      const again = await host.request('info', {});
      expect(again.pid).not.toBe(info.pid);
      expect(host.status().restarts).toBeGreaterThanOrEqual(1);
    } finally {
      await host.stop();
    }
  });

  it('drains the piped stdout/stderr to onOutput', async () => {
    const script = path.join(base, 'chatty.cjs');
    fs.writeFileSync(
      script,
      "process.stdout.write('out-line\\n'); process.stderr.write('err-line\\n'); process.on('message', () => process.exit(0));",
    );
    const output: string[] = [];
    const child = new NodeAsUtilityProcess(script, {});
    const ch = channelFromUtilityProcess(child, { onOutput: (t) => output.push(t) });
    const exited = new Promise<number | null>((r) => ch.onExit((code) => r(code)));
    await new Promise((r) => child.once('spawn', r));
    await expect.poll(() => ['out-line', 'err-line'].every((line) => output.join('').includes(line))).toBe(true);
    ch.send({ kind: 'ping', seq: 1 });
    expect(await exited).toBe(0);
    expect(output.join('')).toContain('out-line');
    expect(output.join('')).toContain('err-line');
  });

  it('kill() escalates to SIGKILL when the worker ignores SIGTERM, and reports the exit once', async () => {
    const { ch, output } = await stubborn(200);
    const pid = ch.pid;
    expect(pid).toBeGreaterThan(0);
    const exits: Array<number | null> = [];
    const exited = new Promise<void>((r) =>
      ch.onExit((code) => {
        exits.push(code);
        r();
      }),
    );
    ch.kill();
    ch.kill();
    await exited;
    expect(isAlive(pid!)).toBe(false);
    // SIGTERM first (the worker saw it and ignored it), then SIGKILL: 128 + 9.
    await expect.poll(() => output.join('')).toContain('got-term');
    expect(exits).toEqual([137]);
    // Known pid after exit (Electron clears it), sends after exit are dropped, late subscribers are still told.
    expect(ch.pid).toBe(pid);
    expect(() => ch.send({ kind: 'ping', seq: 2 })).not.toThrow();
    const late = await new Promise<number | null>((r) => ch.onExit((code) => r(code)));
    expect(late).toBe(137);
  });

  it('kill(true), for a worker that stopped answering: SIGKILL at once, no SIGTERM first', async () => {
    // A grace period no test waits for: the exit can only come from the SIGKILL sent at once.
    const { ch, output } = await stubborn(600_000);
    const exited = new Promise<number | null>((r) => ch.onExit((code) => r(code)));
    ch.kill(true);
    expect(await exited).toBe(137);
    expect(output.join('')).not.toContain('got-term');
  });

  it("listens for the utility process's error event (V8 FatalError), reports it, and still reports the exit", async () => {
    const script = path.join(base, 'fatal.cjs');
    fs.writeFileSync(script, "process.send('up'); setInterval(() => {}, 1000);");
    const output: string[] = [];
    const child = new NodeAsUtilityProcess(script, {});
    const ch = channelFromUtilityProcess(child, { onOutput: (t) => output.push(t) });
    await new Promise<void>((r) => ch.onMessage(() => r()));
    const exited = new Promise<number | null>((r) => ch.onExit((code) => r(code)));
    // What Electron does on a V8 fatal error: 'error' (an EventEmitter throws on an unlistened one), then 'exit'.
    expect(() =>
      child.emit('error', 'FatalError', 'v8::ToLocalChecked Empty MaybeLocal', '{"header":{}}'),
    ).not.toThrow();
    expect(output.join('')).toContain('fatal error (FatalError) at v8::ToLocalChecked Empty MaybeLocal');
    expect(output.join('')).not.toContain('header');
    ch.kill();
    expect(await exited).toBe(143);
  });
});
