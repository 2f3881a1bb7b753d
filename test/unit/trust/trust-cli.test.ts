import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/main/shells/cli/command';
import { usageText } from '../../../src/main/shells/cli/help-text';
import { trustCommand } from '../../../src/main/shells/cli/trust-command';
import { TrustStatusSchema } from '../../../src/shared/trust-contract';
import { mkdirs, privateCli, tempDir, write } from './helpers';

let root: string;
const p = (...s: string[]) => path.join(root, ...s);

/**
 * Runs `gatehouse trust ...` in this process (fast), with the dispatcher's exit-code rules (usage error: 2, failure:
 * 1); the built binary is run for real below.
 */
async function gatehouse(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io = {
    out: (l: string) => out.push(l),
    err: (l: string) => err.push(l),
    env: { HOME: p('home'), GATEHOUSE_HOME: p('gh') },
    cwd: p('work'),
  };
  expect(args[0]).toBe('trust');
  let code: number;
  try {
    code = await trustCommand.run(args.slice(1), io);
  } catch (e) {
    code = e instanceof UsageError ? 2 : 1;
    err.push(e instanceof Error ? e.message : String(e));
    if (e instanceof UsageError) err.push(usageText(trustCommand));
  }
  return { code, out: out.join('\n'), err: err.join('\n') };
}

beforeEach(() => {
  root = tempDir();
  mkdirs(root, 'gh', 'home', 'work/proj/sub', 'work/lib');
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('gatehouse trust', () => {
  it('set, status --json, list --json, revoke: the whole round', async () => {
    expect((await gatehouse('trust', 'set', 'proj', '--scope', 'directory')).code).toBe(0);
    const status = await gatehouse('trust', 'status', p('work/proj/sub'), '--json');
    expect(status.code).toBe(0);
    const parsed = TrustStatusSchema.parse(JSON.parse(status.out));
    expect(parsed).toMatchObject({
      path: p('work/proj/sub'),
      trusted: true,
      decision: 'directory',
      scope: 'directory',
      storedAt: p('work/proj'),
      storeFile: p('gh/trust.json'),
    });

    const list = await gatehouse('trust', 'list', '--json');
    expect(JSON.parse(list.out)).toMatchObject({
      storeFile: p('gh/trust.json'),
      default: 'ask',
      error: null,
      entries: [{ path: p('work/proj'), scope: 'directory' }],
    });

    const revoke = await gatehouse('trust', 'revoke', p('work/proj'));
    expect(revoke.code).toBe(0);
    expect(revoke.out).toMatch(/revoked: directory/);
    const after = JSON.parse((await gatehouse('trust', 'status', p('work/proj'), '--json')).out);
    expect(after).toMatchObject({ trusted: false, decision: 'default', needsDecision: true });
  });

  it('status in words says trusted or not, the decision, where it is stored and its scope', async () => {
    await gatehouse('trust', 'set', p('work/proj'), '--scope', 'parent');
    const { out, code } = await gatehouse('trust', 'status', p('work/lib'));
    expect(code).toBe(0);
    expect(out).toContain(`${p('work/lib')}: trusted`);
    expect(out).toContain('decision: parent (scope parent)');
    expect(out).toContain(`stored at: ${p('work')}`);
    expect(out).toContain(`store file: ${p('gh/trust.json')}`);
  });

  it('never and default', async () => {
    await gatehouse('trust', 'set', p('work/proj'), '--scope', 'never');
    expect(JSON.parse((await gatehouse('trust', 'status', p('work/proj'), '--json')).out).decision).toBe('never');
    expect((await gatehouse('trust', 'default', 'trust')).code).toBe(0);
    expect(fs.readFileSync(p('gh/settings.yaml'), 'utf8')).toMatch(/default: trust/);
    expect(JSON.parse((await gatehouse('trust', 'status', p('work/lib'), '--json')).out)).toMatchObject({
      trusted: true,
      decision: 'default',
    });
    expect(JSON.parse((await gatehouse('trust', 'status', p('work/proj'), '--json')).out).trusted).toBe(false);
  });

  it('bad arguments exit 2 with the usage', async () => {
    for (const args of [
      ['trust'],
      ['trust', 'frobnicate'],
      ['trust', 'set', p('work/proj')],
      ['trust', 'set', p('work/proj'), '--scope', 'session'],
      ['trust', 'set', p('work/proj'), '--scope', 'always'],
      ['trust', 'set', '--scope', 'directory'],
      ['trust', 'status'],
      ['trust', 'status', 'a', 'b'],
      ['trust', 'status', p('work/proj'), '--bogus'],
      ['trust', 'default', 'sometimes'],
      ['trust', 'list', 'extra'],
    ]) {
      const r = await gatehouse(...args);
      expect([args.join(' '), r.code]).toEqual([args.join(' '), 2]);
      expect(r.err).toMatch(/Usage: gatehouse trust/);
    }
    expect(fs.existsSync(p('gh/trust.json'))).toBe(false);
  });

  it('a missing folder fails with exit 1 and a reason; a corrupt store makes status and list fail, and repair fixes it', async () => {
    const missing = await gatehouse('trust', 'set', p('work/nope'), '--scope', 'directory');
    expect(missing).toMatchObject({ code: 1 });
    expect(missing.err).toMatch(/folder not found/);
    await gatehouse('trust', 'set', p('work/proj'), '--scope', 'directory');
    write(p('gh/trust.json'), 'not json');
    const status = await gatehouse('trust', 'status', p('work/proj'), '--json');
    expect(status.code).toBe(1);
    expect(JSON.parse(status.out)).toMatchObject({ trusted: false, decision: 'error' });
    expect((await gatehouse('trust', 'list')).code).toBe(1);
    expect((await gatehouse('trust', 'set', p('work/lib'), '--scope', 'directory')).err).toMatch(
      /corrupt.*trust repair/,
    );
    const repair = await gatehouse('trust', 'repair');
    expect(repair.code).toBe(0);
    expect(repair.out).toMatch(/kept 0 decisions.*kept at .*trust\.json\.corrupt-/);
    expect((await gatehouse('trust', 'list')).code).toBe(0);
  });
});

describe('the built binary', () => {
  let cli: ReturnType<typeof privateCli>;
  beforeAll(() => {
    cli = privateCli();
  });
  afterAll(() => cli?.cleanup());

  it('is what the corpus runs: trust set --scope directory then revoke, with real exit codes', () => {
    const env = { ...process.env, GATEHOUSE_HOME: p('gh'), HOME: p('home') };
    const run = (...args: string[]) =>
      spawnSync(process.execPath, [cli.cli, ...args], { env, cwd: p('work'), encoding: 'utf8' });
    expect(run('trust', 'set', p('work/proj'), '--scope', 'directory').status).toBe(0);
    expect(JSON.parse(run('trust', 'status', p('work/proj'), '--json').stdout).trusted).toBe(true);
    expect(run('trust', 'revoke', p('work/proj')).status).toBe(0);
    expect(JSON.parse(run('trust', 'status', p('work/proj'), '--json').stdout).trusted).toBe(false);
    expect(run('trust', 'set', p('work/proj'), '--scope', 'nope').status).toBe(2);
  });
});
