import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../../..');
const SCRIPT = path.join(ROOT, 'scripts/test.mjs');

// Each side waits until the other has started (a file each), so the two can only finish when they run side by side;
// then prints a line and exits with the code the test gives it.
const waitFor = (mine: string, theirs: string, out: string, exitVar: string): string => `
const fs = require('node:fs');
fs.writeFileSync(${JSON.stringify(mine)}, JSON.stringify(process.argv.slice(2)));
const until = Date.now() + 20000;
const poll = () => {
  if (fs.existsSync(${JSON.stringify(theirs)})) { console.log(${JSON.stringify(out)}); process.exit(Number(process.env.${exitVar} ?? 0)); }
  if (Date.now() > until) { console.log('${out}: the other side never started'); process.exit(3); }
  setTimeout(poll, 20);
};
poll();
`;

let dir = '';
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = '';
});

/** A copy of scripts/test.mjs in a project whose `check` script and `vitest` binary are stand-ins. */
function fakeProject(): string {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-npm-test-')));
  fs.mkdirSync(path.join(dir, 'scripts'));
  fs.mkdirSync(path.join(dir, 'node_modules', '.bin'), { recursive: true });
  fs.copyFileSync(SCRIPT, path.join(dir, 'scripts', 'test.mjs'));
  const started = (name: string): string => path.join(dir, `${name}-started`);
  fs.writeFileSync(
    path.join(dir, 'check.cjs'),
    waitFor(started('check'), started('vitest'), 'CHECK-OUTPUT', 'FAKE_CHECK_EXIT'),
  );
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'fake', private: true, scripts: { check: 'node check.cjs' } }),
  );
  const vitest = path.join(dir, 'node_modules', '.bin', 'vitest');
  fs.writeFileSync(
    vitest,
    `#!${process.execPath}\n${waitFor(started('vitest'), started('check'), 'VITEST-OUTPUT', 'FAKE_VITEST_EXIT')}`,
  );
  fs.chmodSync(vitest, 0o755);
  return dir;
}

function runTests(project: string, env: Record<string, string>, args: string[] = []) {
  const child = spawn(process.execPath, [path.join(project, 'scripts', 'test.mjs'), ...args], {
    cwd: project,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (out += c));
  return new Promise<{ code: number | null; out: string }>((resolve) =>
    child.once('close', (code) => resolve({ code, out })),
  );
}

describe('npm test (scripts/test.mjs): the checks and the tests side by side', () => {
  it('runs both at once, passes the arguments to vitest run, and prints the checks after the tests', async () => {
    const project = fakeProject();
    const { code, out } = await runTests(project, {}, ['test/unit/a.test.ts', '-t', 'x']);
    expect(out).not.toContain('never started');
    expect(code).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(project, 'vitest-started'), 'utf8'))).toEqual([
      'run',
      'test/unit/a.test.ts',
      '-t',
      'x',
    ]);
    expect(out.indexOf('VITEST-OUTPUT')).toBeGreaterThanOrEqual(0);
    expect(out.indexOf('CHECK-OUTPUT')).toBeGreaterThan(out.indexOf('VITEST-OUTPUT'));
    expect(out.trimEnd().split('\n').at(-1)).toMatch(/passed$/);
  });

  it('fails when a check fails though the tests pass, and says which', async () => {
    const { code, out } = await runTests(fakeProject(), { FAKE_CHECK_EXIT: '1' });
    expect(code).toBe(1);
    expect(out).toContain('VITEST-OUTPUT');
    expect(out).toContain('CHECK-OUTPUT');
    expect(out.trimEnd().split('\n').at(-1)).toBe('npm test: the checks (npm run check) failed');
  });

  it('fails when the tests fail though the checks pass, and says which', async () => {
    const { code, out } = await runTests(fakeProject(), { FAKE_VITEST_EXIT: '1' });
    expect(code).toBe(1);
    expect(out.trimEnd().split('\n').at(-1)).toBe('npm test: the tests (vitest run) failed');
  });
});
