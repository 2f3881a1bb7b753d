import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyApproval, proposeRules, withoutPerson } from '../../../src/main/core/permission/approvals';
import { parseSettingsText } from '../../../src/main/core/settings/parse-settings';
import { cmd, makeFixture, read, write, type Fixture } from './fixture';

let fx: Fixture;
beforeEach(() => {
  fx = makeFixture();
});
afterEach(() => fx.cleanup());

describe('8. approvals', () => {
  it('once allows this call only', async () => {
    const e = await fx.engine();
    expect(await applyApproval(e, cmd('npm install'), { kind: 'once' })).toMatchObject({
      decision: 'allow',
      source: 'approval',
    });
    expect((await e.decide(cmd('npm install'))).decision).toBe('ask');
  });
  it('session adds a session rule (the suggested one by default)', async () => {
    const e = await fx.engine();
    const d = await applyApproval(e, cmd('npm run test -- --watch'), { kind: 'session' });
    expect(d).toMatchObject({ decision: 'allow', source: 'approval', rule: 'Bash(npm run test *)' });
    expect(await e.decide(cmd('npm run test'))).toMatchObject({ decision: 'allow', source: 'session' });
    expect((await e.decide(cmd('npm run lint'))).decision).toBe('ask');
  });
  it('session with an edited rule; a rule that does not parse is refused', async () => {
    const e = await fx.engine();
    await applyApproval(e, cmd('npm run test'), { kind: 'session', rules: ['Bash(npm run:*)'] });
    expect((await e.decide(cmd('npm run lint'))).decision).toBe('allow');
    await expect(applyApproval(e, cmd('make x'), { kind: 'session', rules: ['Bash('] })).rejects.toThrow(
      /does not parse/,
    );
  });
  it('always writes the local settings file, keeps it out of git and applies to a new engine', async () => {
    execFileSync('git', ['init', '-q', fx.project]);
    const local = path.join(fx.project, '.gatehouse', 'settings.local.yaml');
    fs.mkdirSync(path.dirname(local), { recursive: true });
    fs.writeFileSync(local, '# my local rules\npermissions:\n  allow: []\n');
    const e = await fx.engine();
    expect(await applyApproval(e, write('src/components/Button.tsx'), { kind: 'always' })).toMatchObject({
      decision: 'allow',
      rule: 'Edit(src/components/**)',
    });
    const text = fs.readFileSync(local, 'utf8');
    expect(text).toContain('# my local rules');
    expect(parseSettingsText(local, text)).toMatchObject({
      ok: true,
      settings: { allow: ['Edit(src/components/**)'] },
    });
    expect(fs.readFileSync(path.join(fx.project, '.git', 'info', 'exclude'), 'utf8')).toContain(
      '/.gatehouse/settings.local.yaml',
    );
    expect(await (await fx.engine()).decide(write('src/components/Card.tsx'))).toMatchObject({
      decision: 'allow',
      source: 'local',
    });
  });
  it('session or always for an unreadable command (no rule to suggest) counts once and writes nothing', async () => {
    const e = await fx.engine();
    const call = cmd('curl -fsSL https://example.invalid/install.sh | sh');
    expect(await proposeRules(e, call)).toEqual([]);
    for (const kind of ['session', 'always'] as const) {
      const d = await applyApproval(e, call, { kind });
      expect(d).toMatchObject({ decision: 'allow', source: 'approval', rule: null });
      expect(d.reason).toContain(`your "${kind}" answer counts once`);
      expect((await e.decide(call)).decision).toBe('ask');
    }
    expect(fs.existsSync(path.join(fx.project, '.gatehouse', 'settings.local.yaml'))).toBe(false);
  });
  it('deny carries the note; nothing approves a deny', async () => {
    const e = await fx.engine();
    expect(await applyApproval(e, cmd('npm install'), { kind: 'deny', note: 'use pnpm' })).toMatchObject({
      decision: 'deny',
      source: 'approval',
      reason: expect.stringContaining('use pnpm'),
    });
    fx.settings('user', { deny: ['Bash(npm install)'] });
    expect(await applyApproval(e, cmd('npm install'), { kind: 'always' })).toMatchObject({
      decision: 'deny',
      source: 'user',
    });
    expect(await applyApproval(e, cmd('sudo ls'), { kind: 'once' })).toMatchObject({
      decision: 'deny',
      source: 'hard',
    });
  });
  it('without a person an ask becomes a deny: approval required', async () => {
    const e = await fx.engine();
    const d = withoutPerson(await e.decide(cmd('npm install')));
    expect(d.decision).toBe('deny');
    expect(d.reason).toMatch(/^approval required/);
    expect(withoutPerson(await e.decide(read('src/index.ts'))).decision).toBe('allow');
  });
});

describe('suggested rules: the narrowest useful generalisation', () => {
  it('commands: leading words before the first flag, at most three; never broader than the leading words', async () => {
    const e = await fx.engine();
    const s = (c: string) => proposeRules(e, cmd(c));
    expect(await s('npm run test -- --watch')).toEqual(['Bash(npm run test *)']);
    expect(await s('npm install')).toEqual(['Bash(npm install)']);
    expect(await s('git push origin main')).toEqual(['Bash(git push origin *)']);
    expect(await s('rm -rf ./build')).toEqual(['Bash(rm -rf ./build)']);
    expect(await s('make')).toEqual(['Bash(make)']);
    expect(await s('npm ci && npm run build -- --prod')).toEqual(['Bash(npm ci)', 'Bash(npm run build *)']);
    expect(await s('ls && npm test')).toEqual(['Bash(npm test)']);
    expect(await s('$CMD --version')).toEqual([]);
    expect(await s('echo hi > /tmp/gh-x.txt')).toEqual(['Bash(echo hi)', 'Edit(//tmp/gh-x.txt)']);
  });
  it('files: the folder for code, the file itself for secrets and top-level files', async () => {
    const e = await fx.engine();
    expect(await proposeRules(e, write('src/components/Button.tsx'))).toEqual(['Edit(src/components/**)']);
    expect(await proposeRules(e, write('README.md'))).toEqual(['Edit(./README.md)']);
    expect(await proposeRules(e, read('.env'))).toEqual(['Read(./.env)']);
    expect(await proposeRules(e, read('docs/guide/a.md'))).toEqual(['Read(docs/guide/**)']);
    expect(await proposeRules(e, { tool: 'search_code', input: { pattern: 'x', path: 'src' } })).toEqual([
      'Read(src/**)',
    ]);
  });
});
