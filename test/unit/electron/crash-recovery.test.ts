import { EventEmitter } from 'node:events';
import type { BrowserWindow } from 'electron';
import { describe, expect, it } from 'vitest';
import { recoverRendererCrashes, workerFailureHandler } from '../../../src/main/shells/electron/crash-recovery';
import type { WorkerStatus } from '../../../src/shared/api';

class FakeWindow extends EventEmitter {
  readonly webContents = new EventEmitter();
  visible = false;
  destroyed = false;
  isDestroyed() {
    return this.destroyed;
  }
  isVisible() {
    return this.visible;
  }
  show() {
    this.visible = true;
  }
}

function setUp(answer: number | (() => Promise<number>) = 0) {
  const window = new FakeWindow();
  let clock = 1_000_000;
  const reloads: number[] = [];
  const asked: Array<{ detail: string; buttons: string[] }> = [];
  const logs: string[] = [];
  let quits = 0;
  const stop = recoverRendererCrashes(window as unknown as BrowserWindow, {
    reload: () => reloads.push(clock),
    ask: async (box) => {
      asked.push(box);
      return typeof answer === 'number' ? answer : answer();
    },
    quit: () => quits++,
    log: (l) => logs.push(l),
    now: () => clock,
    showAfterMs: 60_000,
  });
  const crash = (reason = 'crashed') => window.webContents.emit('render-process-gone', {}, { reason, exitCode: 11 });
  return { window, reloads, asked, logs, crash, stop, quits: () => quits, tick: (ms: number) => (clock += ms) };
}

describe('recoverRendererCrashes', () => {
  it('a renderer that dies before its first paint: the window is shown and the page loaded again', () => {
    const t = setUp();
    expect(t.window.visible).toBe(false);
    t.crash('oom');
    expect(t.window.visible).toBe(true);
    expect(t.reloads).toHaveLength(1);
    expect(t.logs).toEqual(['renderer gone: oom (exit code 11)']);
  });

  it('shows the window when the page has painted, or after showAfterMs when it never does', async () => {
    const t = setUp();
    t.window.emit('ready-to-show');
    expect(t.window.visible).toBe(true);
    const hung = new FakeWindow();
    recoverRendererCrashes(hung as unknown as BrowserWindow, {
      reload: () => undefined,
      ask: async () => 0,
      quit: () => undefined,
      log: () => undefined,
      showAfterMs: 20,
    });
    await expect.poll(() => hung.visible).toBe(true);
  });

  it('reloads 3 times within a minute, then asks; Reload starts counting again, Quit quits', async () => {
    const t = setUp(0);
    t.crash();
    t.crash();
    t.crash();
    expect(t.reloads).toHaveLength(3);
    t.crash();
    expect(t.reloads).toHaveLength(3);
    expect(t.asked).toHaveLength(1);
    expect(t.asked[0]).toMatchObject({
      buttons: ['Reload', 'Quit'],
      cancel: 0,
      detail: expect.stringMatching(/stopped 4 times within 60 s \(last: crashed, exit code 11\).*denied/),
    });
    await expect.poll(() => t.reloads.length).toBe(4);
    t.crash();
    expect(t.reloads).toHaveLength(5); // counting started again

    const q = setUp(1);
    for (let i = 0; i < 4; i++) q.crash();
    await expect.poll(() => q.quits()).toBe(1);
    expect(q.reloads).toHaveLength(3);
  });

  it('crashes spread over time keep reloading; one dialog at a time; nothing after the window is gone', async () => {
    const t = setUp();
    for (let i = 0; i < 10; i++) {
      t.crash();
      t.tick(30_000);
    }
    expect(t.reloads).toHaveLength(10);
    expect(t.asked).toHaveLength(0);

    let release: (n: number) => void = () => undefined;
    const slow = setUp(() => new Promise<number>((r) => (release = r)));
    for (let i = 0; i < 6; i++) slow.crash();
    expect(slow.asked).toHaveLength(1);
    slow.window.destroyed = true;
    release(0);
    await new Promise((r) => setImmediate(r));
    expect(slow.reloads).toHaveLength(3);
    slow.crash();
    expect(slow.reloads).toHaveLength(3);
  });

  it('a main-frame load failure shows the window; an aborted navigation or a subframe does not', () => {
    const t = setUp();
    t.window.webContents.emit('did-fail-load', {}, -3, 'ERR_ABORTED', 'app://gatehouse/index.html', true);
    t.window.webContents.emit('did-fail-load', {}, -6, 'ERR_FILE_NOT_FOUND', 'app://gatehouse/x.html', false);
    expect(t.window.visible).toBe(false);
    t.window.webContents.emit('did-fail-load', {}, -6, 'ERR_FILE_NOT_FOUND', 'app://gatehouse/index.html', true);
    expect(t.window.visible).toBe(true);
    expect(t.logs).toEqual(['the page did not load: ERR_FILE_NOT_FOUND (-6) app://gatehouse/index.html']);
  });
});

describe('workerFailureHandler', () => {
  const status = (state: WorkerStatus['state'], message: string | null = null): WorkerStatus => ({
    state,
    message,
    restarts: 3,
    info: null,
  });

  it('asks once when the supervisor gives up; "Start it again" restarts the worker, Quit quits', async () => {
    let answer = 0;
    const asked: string[] = [];
    let restarts = 0;
    let quits = 0;
    const onStatus = workerFailureHandler({
      ask: async (box) => {
        asked.push(box.detail);
        return answer;
      },
      restart: async () => void restarts++,
      quit: () => quits++,
      log: () => undefined,
    });
    onStatus(status('restarting', 'the worker exited (code 1); restarting in 200 ms'));
    expect(asked).toEqual([]);
    onStatus(status('failed', 'The worker crashed 4 times in 60 s (last: code 1).'));
    onStatus(status('failed', 'again'));
    expect(asked).toEqual([expect.stringContaining('crashed 4 times')]);
    await expect.poll(() => restarts).toBe(1);
    answer = 1; // Not now (Esc): the worker stays stopped, the app stays open
    onStatus(status('failed', 'once more'));
    await expect.poll(() => asked.length).toBe(2);
    await new Promise((r) => setImmediate(r));
    expect([restarts, quits]).toEqual([1, 0]);
    answer = 2;
    onStatus(status('failed', 'and again'));
    await expect.poll(() => quits).toBe(1);
    expect(asked).toHaveLength(3);
  });
});
