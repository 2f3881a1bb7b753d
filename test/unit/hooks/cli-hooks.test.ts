import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TrustStore } from '../../../src/main/core/trust/trust-store';
import { makeFixture, runCliIn, type Fixture } from '../permission/fixture';
import { addHook, script, settingsFileOf } from './hook-fixture';

let fx: Fixture;
beforeEach(() => {
  fx = makeFixture();
});
afterEach(() => fx.cleanup());

const cli = (args: string[]) => runCliIn(fx, args);

const check = (...extra: string[]) =>
  cli([
    'permissions',
    'check',
    '--project',
    fx.project,
    '--call',
    '{"tool":"run_command","input":{"command":"npm test"}}',
    ...extra,
  ]);

describe('gatehouse permissions check with hooks', () => {
  it('runs PreToolUse hooks (the run on stderr), and not with --no-hooks', async () => {
    const sh = script(fx, 'no.sh', '#!/bin/sh\ncat >/dev/null\necho "tests are frozen" >&2\nexit 2\n');
    addHook(fx, 'user', 'PreToolUse', sh, { matcher: 'Bash' });
    const hooked = await check();
    expect(JSON.parse(hooked.out[0]!)).toMatchObject({ decision: 'deny', source: 'hook', rule: sh });
    expect(hooked.err.join('\n')).toMatch(/user hook ".*no\.sh" \(\d+ ms\): deny: tests are frozen/);
    const plain = await check('--no-hooks');
    expect(JSON.parse(plain.out[0]!).source).not.toBe('hook');
    // The simulation's hook run is audited with the simulations.
    const audit = fs.readFileSync(path.join(fx.configDir, 'audit-simulations.jsonl'), 'utf8');
    expect(audit).toContain('"kind":"hook"');
  });

  it("never runs an untrusted repository's hooks, Claude Code's included", async () => {
    const marker = path.join(fx.root, 'pwned');
    addHook(fx, 'project', 'PreToolUse', `touch ${marker}`);
    addHook(fx, 'claudeProject', 'PreToolUse', `touch ${marker}`);
    addHook(fx, 'claudeLocal', 'PreToolUse', `touch ${marker}`);
    const r = await check();
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out[0]!).source).toBe('trust');
    expect(fs.existsSync(marker)).toBe(false);
  });
});

describe('gatehouse hooks list', () => {
  it('lists every hook with its source and whether it runs', async () => {
    addHook(fx, 'user', 'PreToolUse', 'echo user', { matcher: 'Bash', timeout: 5 });
    addHook(fx, 'claudeProject', 'PostToolUse', 'echo project');
    fx.write(
      settingsFileOf(fx, 'claudeLocal'),
      JSON.stringify({ hooks: { PreCompact: [{ hooks: [{ type: 'command', command: 'echo x' }] }] } }),
    );
    const r = await cli(['hooks', 'list', '--project', fx.project, '--json']);
    expect(r.code).toBe(0);
    const listed = JSON.parse(r.out[0]!) as { trusted: boolean; hooks: Record<string, unknown>[] };
    expect(listed.trusted).toBe(false);
    expect(listed.hooks).toEqual([
      expect.objectContaining({ event: 'PreCompact', source: 'local', active: false }),
      expect.objectContaining({
        event: 'PostToolUse',
        source: 'project',
        active: false,
        sandboxed: true,
        inactiveReason: expect.stringContaining('not trusted'),
      }),
      expect.objectContaining({
        event: 'PreToolUse',
        source: 'user',
        matcher: 'Bash',
        timeout: 5,
        active: true,
        sandboxed: false,
      }),
    ]);
    await new TrustStore({ configDir: fx.configDir, env: fx.env }).set(fx.project, 'directory');
    const text = await cli(['hooks', 'list', '--project', fx.project]);
    expect(text.out.join('\n')).toContain('(trusted)');
    expect(text.out.join('\n')).toMatch(
      /PostToolUse \[\*\]\s+project .*settings\.json\n\s+echo project .*runs in the OS sandbox\)\n\s+active/,
    );
    expect(text.out.join('\n')).toContain('Gatehouse does not run PreCompact hooks');
  });

  it('reports a broken hooks block with the file, and keeps the last good hooks', async () => {
    addHook(fx, 'user', 'PreToolUse', 'echo ok');
    expect(JSON.parse((await cli(['hooks', 'list', '--json'])).out[0]!).hooks).toHaveLength(1);
    fx.write(
      settingsFileOf(fx, 'user'),
      JSON.stringify({ hooks: { PreToolUse: [{ hooks: [{ type: 'command', timeout: 'soon' }] }] } }),
    );
    const r = await cli(['hooks', 'list', '--json']);
    expect(r.err.join('\n')).toContain('settings.yaml');
    expect(JSON.parse(r.out[0]!).hooks).toEqual([expect.objectContaining({ command: 'echo ok' })]);
  });

  it('bad arguments exit 2', async () => {
    expect((await cli(['hooks', 'lst'])).code).toBe(2);
    expect((await cli(['hooks', 'list', '--jsn'])).code).toBe(2);
    expect((await cli(['hook', 'codex'])).code).toBe(2);
  });
});
