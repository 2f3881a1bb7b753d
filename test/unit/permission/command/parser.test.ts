import { describe, expect, it, vi } from 'vitest';

type CommandModule = typeof import('../../../../src/main/core/shell-analysis/analyze') &
  typeof import('../../../../src/main/core/shell-analysis/parse/parser');

async function freshModule(): Promise<CommandModule> {
  vi.resetModules();
  const [analyze, parser] = await Promise.all([
    import('../../../../src/main/core/shell-analysis/analyze'),
    import('../../../../src/main/core/shell-analysis/parse/parser'),
  ]);
  return { ...analyze, ...parser };
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
