import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeFixture, runCliIn, type Fixture } from './fixture';

let fx: Fixture;
beforeEach(() => {
  fx = makeFixture();
});
afterEach(() => fx.cleanup());

const cli = (args: string[]) => runCliIn(fx, args);

describe('gatehouse permissions check', () => {
  it('prints one JSON decision and exits 0', async () => {
    const r = await cli([
      'permissions',
      'check',
      '--project',
      fx.project,
      '--call',
      '{"tool":"run_command","input":{"command":"ls"}}',
    ]);
    expect(r.code).toBe(0);
    expect(r.out).toHaveLength(1);
    const d = JSON.parse(r.out[0]!);
    expect(Object.keys(d).sort()).toEqual(['decision', 'reason', 'rule', 'source']);
  });
  it('takes --mode, --agent-mode and repeatable --allow/--ask/--deny', async () => {
    const call = JSON.stringify({ tool: 'run_command', input: { command: 'npm test' } });
    const base = ['permissions', 'check', '--project', fx.project, '--call', call];
    // The fixture's trust store is empty, so the project is untrusted: bypass mode still asks (trust).
    expect(JSON.parse((await cli([...base, '--mode', 'bypassPermissions'])).out[0]!)).toMatchObject({
      decision: 'ask',
      source: 'trust',
    });
    const readCall = JSON.stringify({ tool: 'read_file', input: { path: 'README.md' } });
    expect(
      JSON.parse(
        (await cli(['permissions', 'check', '--project', fx.project, '--call', readCall, '--mode', 'strict'])).out[0]!,
      ).decision,
    ).toBe('ask');
    expect(JSON.parse((await cli([...base, '--agent-mode', 'plan'])).out[0]!).source).toBe('agent-mode');
    // A CLI allow passes the trust cap.
    expect(
      JSON.parse((await cli([...base, '--allow', 'Bash(make:*)', '--allow', 'Bash(npm test)'])).out[0]!),
    ).toMatchObject({ decision: 'allow', source: 'cli' });
    expect(
      JSON.parse((await cli([...base, '--allow', 'Bash(npm test)', '--deny', 'Bash(npm:*)'])).out[0]!),
    ).toMatchObject({ decision: 'deny', source: 'cli' });
  });
  it('bad arguments exit 2 with a message on stderr', async () => {
    const call = '{"tool":"read_file","input":{"path":"x"}}';
    for (const args of [
      ['permissions', 'check', '--project', fx.project],
      ['permissions', 'check', '--project', fx.project, '--call', '{not json'],
      ['permissions', 'check', '--project', fx.project, '--call', call, '--mode', 'yolo'],
      ['permissions', 'check', '--project', fx.project, '--call', call, '--agent-mode', 'x'],
      ['permissions', 'check', '--project', path.join(fx.root, 'missing'), '--call', call],
      ['permissions', 'check', '--call', call, '--bogus', '1'],
      ['permissions', 'nope'],
      ['permissions', 'check', '--project', fx.project, '--call', call, '--deny', 'Bash('],
    ]) {
      const r = await cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err.join('\n').length).toBeGreaterThan(0);
      expect(r.out).toEqual([]);
    }
  });
  it('records the simulated decision apart from the real audit log', async () => {
    await cli([
      'permissions',
      'check',
      '--project',
      fx.project,
      '--call',
      '{"tool":"read_file","input":{"path":"README.md"}}',
    ]);
    const lines = fs.readFileSync(path.join(fx.configDir, 'audit-simulations.jsonl'), 'utf8').trim().split('\n');
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ tool: 'read_file', decision: 'allow', source: 'mode' });
    expect(fs.existsSync(path.join(fx.configDir, 'audit.jsonl'))).toBe(false);
  });
});

describe('gatehouse rules', () => {
  it('add, list (with sources, files and errors) and remove', async () => {
    expect(
      (await cli(['rules', 'add', '--scope', 'project', '--behavior', 'deny', 'Read(.env)', '--project', fx.project]))
        .code,
    ).toBe(0);
    expect((await cli(['rules', 'add', '--scope', 'user', '--behavior', 'allow', 'Bash(make:*)'])).code).toBe(0);
    expect(
      (await cli(['rules', 'add', '--scope', 'local', '--behavior', 'ask', 'Edit(src/**)', '--project', fx.project]))
        .code,
    ).toBe(0);
    fx.settings('claudeProject', { allow: ['WebFetch(domain:x.com)', 'Bash('] });
    fx.write(fx.policy, 'permissions:\n  deny: [\n');
    const r = await cli(['rules', 'list', '--project', fx.project, '--json']);
    // A broken file and a skipped rule: listed, and the command fails.
    expect(r.code).toBe(1);
    const list = JSON.parse(r.out.join('\n'));
    const rules = list.rules.map(
      (x: { behavior: string; rule: string; source: string }) => `${x.source} ${x.behavior} ${x.rule}`,
    );
    expect(rules).toEqual(
      expect.arrayContaining([
        'project deny Read(.env)',
        'user allow Bash(make:*)',
        'local ask Edit(src/**)',
        'project allow WebFetch(domain:x.com)',
      ]),
    );
    expect(list.ruleErrors[0]).toMatchObject({ rule: 'Bash(', file: path.join(fx.project, '.claude/settings.json') });
    expect(list.fileErrors[0]).toMatchObject({ file: fx.policy, line: expect.any(Number) });
    const text = await cli(['rules', 'list', '--project', fx.project]);
    expect(text.out.join('\n')).toContain('Read(.env)');
    expect(text.out.join('\n')).toContain('no such tool yet');
    expect(
      (
        await cli([
          'rules',
          'remove',
          '--scope',
          'project',
          '--behavior',
          'deny',
          'Read(.env)',
          '--project',
          fx.project,
        ])
      ).code,
    ).toBe(0);
    expect(
      (
        await cli([
          'rules',
          'remove',
          '--scope',
          'project',
          '--behavior',
          'deny',
          'Read(.env)',
          '--project',
          fx.project,
        ])
      ).code,
    ).toBe(1);
  });
  it('refuses bad scopes, behaviours and rules', async () => {
    expect((await cli(['rules', 'add', '--scope', 'policy', '--behavior', 'deny', 'Bash(x)'])).code).toBe(2);
    expect((await cli(['rules', 'add', '--scope', 'user', '--behavior', 'maybe', 'Bash(x)'])).code).toBe(2);
    expect((await cli(['rules', 'add', '--scope', 'user', '--behavior', 'deny', 'Bash('])).code).toBe(2);
    expect((await cli(['rules', 'add', '--scope', 'user', '--behavior', 'deny'])).code).toBe(2);
  });
});
