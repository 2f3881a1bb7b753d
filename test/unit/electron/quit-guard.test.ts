import { describe, expect, it } from 'vitest';
import type { AskUser } from '../../../src/main/shells/electron/crash-recovery';
import { QuitGuard } from '../../../src/main/shells/electron/quit-guard';

// The one guard in front of everything that would end a running turn (quit, last window, restart to update), with
// the dialog and the chat as fakes. The built main wired to Electron's events: quit-while-running.test.ts.

function setUp(options: { answer?: () => Promise<number>; stopRun?: () => Promise<void> } = {}) {
  let running = true;
  const asked: Array<Parameters<AskUser>[0]> = [];
  const logs: string[] = [];
  let stops = 0;
  const guard = new QuitGuard({
    running: () => running,
    stopRun: async () => {
      stops++;
      await (options.stopRun ?? (async () => undefined))();
      running = false;
    },
    ask: async (box) => {
      asked.push(box);
      return (options.answer ?? (async () => 1))();
    },
    log: (line) => logs.push(line),
    stopTimeoutMs: 50,
  });
  return { guard, asked, logs, stops: () => stops, setRunning: (r: boolean) => (running = r) };
}

describe('QuitGuard', () => {
  it('lets a quit through at once when no turn runs: no dialog', async () => {
    const t = setUp();
    t.setRunning(false);
    expect(t.guard.clear()).toBe(true);
    let prevented = false;
    t.guard.intercept({ preventDefault: () => (prevented = true) }, 'quit', () => undefined);
    expect(prevented).toBe(false);
    expect(await t.guard.confirm('update')).toBe(true);
    expect(t.asked).toEqual([]);
  });

  it('"Wait" keeps the app: nothing is stopped, and the next quit asks again', async () => {
    const t = setUp({ answer: async () => 0 });
    expect(await t.guard.confirm('quit')).toBe(false);
    expect(t.stops()).toBe(0);
    expect(t.guard.clear()).toBe(false);
    expect(await t.guard.confirm('close')).toBe(false);
    expect(t.asked).toHaveLength(2);
  });

  it('"Stop it and quit" stops the turn before the quit goes on; later quit events pass unasked', async () => {
    const t = setUp();
    let quits = 0;
    let prevented = false;
    t.guard.intercept({ preventDefault: () => (prevented = true) }, 'quit', () => quits++);
    expect(prevented).toBe(true);
    await expect.poll(() => quits).toBe(1);
    expect(t.stops()).toBe(1);
    t.setRunning(true); // even if something started meanwhile, the person's answer stands
    expect(t.guard.clear()).toBe(true);
    expect(t.asked.map((b) => b.buttons)).toEqual([['Wait', 'Stop it and quit']]);
  });

  it('a second quit while the dialog is up waits for the same answer (one dialog, one stop)', async () => {
    let answer: (n: number) => void = () => undefined;
    const t = setUp({ answer: () => new Promise<number>((r) => (answer = r)) });
    const first = t.guard.confirm('quit');
    const second = t.guard.confirm('close');
    await expect.poll(() => t.asked.length).toBe(1);
    answer(1);
    expect(await Promise.all([first, second])).toEqual([true, true]);
    expect(t.stops()).toBe(1);
  });

  it('a restart to update says so on its button', async () => {
    const t = setUp({ answer: async () => 0 });
    await t.guard.confirm('update');
    expect(t.asked[0]).toMatchObject({ message: 'A run is in progress', buttons: ['Wait', 'Stop it and restart'] });
    expect(t.asked[0]!.detail).toMatch(/^Restarting to update now stops it/);
  });

  it('a turn that does not record its end in time does not hold the quit forever: it goes on, and the log says why', async () => {
    const t = setUp({ stopRun: () => new Promise<void>(() => undefined) });
    expect(await t.guard.confirm('quit')).toBe(true);
    expect(t.logs).toEqual([expect.stringMatching(/did not record its end within/)]);
  });

  it('a dialog that fails (no display left) keeps the app open rather than dropping the turn', async () => {
    const t = setUp({ answer: async () => Promise.reject(new Error('no display')) });
    expect(await t.guard.confirm('quit')).toBe(false);
    expect(t.stops()).toBe(0);
    expect(t.logs).toEqual([expect.stringMatching(/could not ask.*no display/)]);
  });
});
