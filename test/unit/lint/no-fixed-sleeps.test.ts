import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The project's own lint config on code placed (virtually) among the tests: every way of writing a fixed sleep is an
// error there; a timer that gives up on a wait or acts later is not, and neither is a sleep in the product.

const eslint = new ESLint({ cwd: path.resolve(__dirname, '../../..') });

const SLEEPS = [
  "import { setTimeout as wait } from 'node:timers/promises';",
  "import { promisify } from 'node:util';",
  'export const a = () => new Promise((r) => setTimeout(r, 20));',
  'export const b = (ms: number) => new Promise<void>((resolve) => { setTimeout(resolve, ms); });',
  'export const c = () => new Promise<void>((resolve) => setTimeout(() => resolve(), 50));',
  'export const d = promisify(setTimeout);',
  'export const e = async (ready: () => boolean) => { while (!ready()) await new Promise((r) => setTimeout(r, 10)); };',
  'export const f = () => new Promise((resolve) => { const poll = () => (done() ? resolve(1) : setTimeout(poll, 20)); poll(); });',
  'declare const done: () => boolean;',
].join('\n');

const TIMERS = [
  'export const g = (p: Promise<number>) =>',
  "  new Promise<number>((resolve, reject) => { const t = setTimeout(() => reject(new Error('timed out')), 5_000); void p.then((v) => { clearTimeout(t); resolve(v); }); });",
  'export const h = (kill: () => void) => new Promise<void>((resolve) => { setTimeout(kill, 40); resolve(); });',
  'export const i = (abort: () => void) => setTimeout(() => abort(), 20);',
  'export const j = () => new Promise<string | null>((resolve) => { setTimeout(() => resolve(null), 5_000); });',
].join('\n');

async function sleepErrors(code: string, file: string): Promise<number[]> {
  const [result] = await eslint.lintText(code + '\n', { filePath: file });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'tests/no-fixed-sleep').map((m) => m.line);
}

describe('no fixed sleeps in tests (lint)', () => {
  it.each(['test/unit/x/new.test.ts', 'test/integration/new.test.ts', 'test/support/new-helper.ts'])(
    '%s: every fixed sleep is an error',
    async (file) => {
      expect(await sleepErrors(SLEEPS, file)).toEqual([1, 3, 4, 5, 6, 7, 8]);
    },
    30_000,
  );

  it('a timeout on a wait, a timer that acts (a kill, an abort) and the product are left alone', async () => {
    expect(await sleepErrors(TIMERS, 'test/unit/x/new.test.ts')).toEqual([]);
    expect(
      await sleepErrors('export const a = () => new Promise((r) => setTimeout(r, 20));', 'src/worker/x.ts'),
    ).toEqual([]);
  }, 30_000);
});
