import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/main/shells/cli/main';
import { evaluateWithHooks } from '../../../src/main/core/hooks/pre-tool-use';
import { HookRuntime } from '../../../src/main/core/hooks/hook-runtime';
import { createPermissionEngine } from '../../../src/main/core/permission/create-engine';
import { storeOracle } from '../../../src/main/core/trust/trust-extensions';
import { TrustStore } from '../../../src/main/core/trust/trust-store';
import { addHook } from '../hooks/hook-fixture';
import { cmd, makeFixture, type Fixture } from '../permission/fixture';

// Trust is specific: a trust decision records which project extensions (rules, hooks, instructions) it enables.

let fx: Fixture;
let store: TrustStore;
beforeEach(() => {
  fx = makeFixture();
  store = new TrustStore({ configDir: fx.configDir, env: fx.env });
});
afterEach(() => fx.cleanup());

const trustFile = () => path.join(fx.configDir, 'trust.json');

async function cli(args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l), env: fx.env, cwd: fx.project });
  return { code, out, err };
}

async function engineWithStore() {
  return createPermissionEngine({
    projectRoot: fx.project,
    configDir: fx.configDir,
    env: fx.env,
    trust: storeOracle(store),
    audit: null,
  });
}

describe('trust extensions', () => {
  it('a trust file written before trust was specific still reads: everything enabled', async () => {
    fs.writeFileSync(
      trustFile(),
      JSON.stringify({
        version: 1,
        entries: [
          {
            path: fx.project,
            scope: 'directory',
            grantedAt: new Date().toISOString(),
            lastOpened: null,
            grantedFrom: null,
          },
        ],
      }),
    );
    expect(await store.check(fx.project)).toMatchObject({
      trusted: true,
      extensions: { rules: true, hooks: true, instructions: true },
    });
  });

  it('stores switches only when one is off (the file stays readable by earlier versions otherwise)', async () => {
    await store.set(fx.project, 'directory');
    expect(fs.readFileSync(trustFile(), 'utf8')).not.toContain('extensions');
    await store.setExtensions(fx.project, { hooks: false });
    const stored = JSON.parse(fs.readFileSync(trustFile(), 'utf8')) as { entries: Record<string, unknown>[] };
    expect(stored.entries[0]!.extensions).toEqual({ rules: true, hooks: false, instructions: true, mcp: true });
    expect((await new TrustStore({ configDir: fx.configDir, env: fx.env }).check(fx.project)).extensions?.hooks).toBe(
      false,
    );
    await store.setExtensions(fx.project, { hooks: true });
    expect(fs.readFileSync(trustFile(), 'utf8')).not.toContain('extensions');
  });

  it("without hooks, a trusted project's hooks do not run (a marker file proves it)", async () => {
    const marker = path.join(fx.root, 'ran');
    addHook(fx, 'claudeProject', 'PreToolUse', `touch ${marker}; exit 2`);
    await store.set(fx.project, 'directory', { rules: true, hooks: false, instructions: true, mcp: true });
    const engine = await engineWithStore();
    const runtime = new HookRuntime({ projectRoot: fx.project, env: fx.env, sessionId: 's' });
    const { runs } = await evaluateWithHooks(engine, runtime, cmd('ls'));
    expect(runs).toEqual([]);
    expect(fs.existsSync(marker)).toBe(false);
    const listed = JSON.parse((await cli(['hooks', 'list', '--json'])).out[0]!) as { hooks: Record<string, unknown>[] };
    expect(listed.hooks[0]).toMatchObject({
      active: false,
      inactiveReason: expect.stringContaining('does not enable'),
    });
  });

  it("without rules, a trusted project's allow rules are not loaded (its deny rules are)", async () => {
    fx.settings('project', { allow: ['Bash(npm test)'], deny: ['Bash(git push:*)'] });
    await store.set(fx.project, 'directory');
    let engine = await engineWithStore();
    expect((await engine.evaluate(cmd('npm test'))).decision).toMatchObject({ decision: 'allow', source: 'project' });
    await store.setExtensions(fx.project, { rules: false });
    engine = await engineWithStore();
    expect((await engine.evaluate(cmd('npm test'))).decision.decision).toBe('ask');
    expect((await engine.evaluate(cmd('npm test'))).decision.decision).toBe('ask');
    expect((await engine.evaluate(cmd('git push'))).decision).toMatchObject({ decision: 'deny', source: 'project' });
  });

  it('the CLI sets and shows them; switching them needs a decision that trusts the folder', async () => {
    const set = await cli(['trust', 'set', fx.project, '--scope', 'directory', '--without', 'hooks,instructions']);
    expect(set.code).toBe(0);
    expect(set.out.join('\n')).toContain('enables: its rules and MCP servers only');
    const status = await cli(['trust', 'status', fx.project]);
    expect(status.out.join('\n')).toContain('enables: its rules and MCP servers only');
    const on = await cli(['trust', 'extensions', fx.project, '--enable', 'hooks']);
    expect(on.out.join('\n')).toContain('its rules, hooks and MCP servers only');
    expect((await cli(['trust', 'set', fx.project, '--scope', 'directory', '--without', 'macros'])).code).toBe(2);
    await cli(['trust', 'revoke', fx.project]);
    const refused = await cli(['trust', 'extensions', fx.project, '--disable', 'rules']);
    expect(refused.code).toBe(1);
    expect(refused.err.join('\n')).toContain('trust it first');
  });

  it('session decisions carry them too', async () => {
    await store.set(fx.project, 'session', { rules: true, hooks: false, instructions: false, mcp: true });
    expect((await store.check(fx.project)).extensions).toEqual({
      rules: true,
      hooks: false,
      instructions: false,
      mcp: true,
    });
    await store.setExtensions(fx.project, { instructions: true });
    expect((await store.check(fx.project)).extensions?.instructions).toBe(true);
    expect(fs.existsSync(trustFile())).toBe(false);
  });
});
