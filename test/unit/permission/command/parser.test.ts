import { describe, expect, it, vi } from 'vitest';

type CommandModule = typeof import('../../../../src/main/permission/command');

async function freshModule(): Promise<CommandModule> {
  vi.resetModules();
  return import('../../../../src/main/permission/command');
}

describe('initShellParser', () => {
  it('must be awaited before analyzeCommand, which then works synchronously', async () => {
    const m = await freshModule();
    expect(() => m.analyzeCommand('ls')).toThrow(/initShellParser/);
    await m.initShellParser();
    expect(m.analyzeCommand('ls').commands.map((c) => c.name)).toEqual(['ls']);
  });

  it('is idempotent and concurrent calls share one load', async () => {
    const m = await freshModule();
    const a = m.initShellParser();
    const b = m.initShellParser();
    expect(a).toBe(b);
    await Promise.all([a, b]);
    expect(m.initShellParser()).toBe(a);
  });
});

describe('performance', () => {
  it('analyses a 500-character command in well under a millisecond at the median', async () => {
    const m = await freshModule();
    await m.initShellParser();
    const unit = 'git diff --stat HEAD~1 -- src | grep -v test | sort -u > /dev/null && ';
    const command = (unit.repeat(Math.ceil(500 / unit.length)) + 'X=$(date) bash -c "ls -la; echo ok"').slice(-500);
    expect(m.analyzeCommand(command).readable).toBe(true);
    const times: number[] = [];
    for (let i = 0; i < 500; i++) {
      const t = process.hrtime.bigint();
      m.analyzeCommand(command);
      times.push(Number(process.hrtime.bigint() - t) / 1000);
    }
    times.sort((x, y) => x - y);
    const p50 = times[250] as number;
    const p99 = times[495] as number;
    console.log(`analyzeCommand, 500 chars: p50 ${p50.toFixed(0)} µs, p99 ${p99.toFixed(0)} µs`);
    // generous: the test machine is shared; `npm run bench` reports the real p99
    expect(p50).toBeLessThan(2000);
  });
});
