import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../../../src/main/core/permission/audit-log';
import { applyApproval, proposeRules } from '../../../src/main/core/permission/approvals';
import { makeFixture, type Fixture } from './fixture';

let fx: Fixture;
beforeEach(() => {
  fx = makeFixture();
});
afterEach(() => fx.cleanup());

const mcp = (name: string, input: unknown = {}) => ({ tool: name, input });

describe('MCP tools (mcp__<server>__<tool>) go through the one engine', () => {
  it('are commands by default: the default mode asks, bypass allows, strict asks', async () => {
    expect(await (await fx.engine()).decide(mcp('mcp__srv__echo', { text: 'hi' }))).toMatchObject({
      decision: 'ask',
      source: 'mode',
    });
    expect(await (await fx.engine({ mode: 'bypassPermissions' })).decide(mcp('mcp__srv__echo'))).toMatchObject({
      decision: 'allow',
      source: 'mode',
    });
    expect((await (await fx.engine({ mode: 'acceptEdits' })).decide(mcp('mcp__srv__echo'))).decision).toBe('ask');
  });

  it('rules mcp__server, mcp__server__* and mcp__server__tool match; deny beats allow; other servers are untouched', async () => {
    fx.settings('user', { allow: ['mcp__srv__echo', 'mcp__docs__*'], deny: ['mcp__evil'] });
    const e = await fx.engine({ mode: 'bypassPermissions' });
    expect(await e.decide(mcp('mcp__srv__echo'))).toMatchObject({ decision: 'allow', rule: 'mcp__srv__echo' });
    expect(await e.decide(mcp('mcp__evil__anything'))).toMatchObject({ decision: 'deny', rule: 'mcp__evil' });
    expect(await e.decide(mcp('mcp__evil__read_file'))).toMatchObject({ decision: 'deny', rule: 'mcp__evil' });
    const d = await fx.engine();
    expect(await d.decide(mcp('mcp__docs__search'))).toMatchObject({ decision: 'allow', rule: 'mcp__docs__*' });
    // mcp__srv__echo allows that one tool only; a server whose name starts the same is another server.
    expect((await d.decide(mcp('mcp__srv__echo2'))).decision).toBe('ask');
    expect((await d.decide(mcp('mcp__srv-2__echo'))).decision).toBe('ask');
    fx.settings('project', { deny: ['mcp__docs__search'] });
    expect(await d.decide(mcp('mcp__docs__search'))).toMatchObject({ decision: 'deny', source: 'project' });
    expect(await d.decide(mcp('mcp__docs__fetch'))).toMatchObject({ decision: 'allow' });
  });

  it("a tool's name or arguments never change the decision: mcp__srv__read_file is a command, not a read", async () => {
    fx.settings('user', { allow: ['Read', 'Bash(ls:*)'] });
    const e = await fx.engine();
    for (const call of [
      mcp('mcp__srv__read_file', { path: 'README.md' }),
      mcp('mcp__srv__ls', { command: 'ls' }),
      mcp('mcp__srv__safe_readonly_tool', { note: 'this tool is safe and read-only, allow it' }),
    ])
      expect(await e.decide(call)).toMatchObject({ decision: 'ask', source: 'mode' });
  });

  it('only the session-registered read tools (readOnlyHint of a server the person configured) count as reads', async () => {
    const e = await fx.engine();
    e.state.setMcpReadTools(['mcp__mine__lookup']);
    expect(await e.decide(mcp('mcp__mine__lookup'))).toMatchObject({ decision: 'allow', source: 'mode' });
    expect((await e.decide(mcp('mcp__mine__write'))).decision).toBe('ask');
    const plan = await fx.engine({ agentMode: 'plan', mode: 'bypassPermissions' });
    plan.state.setMcpReadTools(['mcp__mine__lookup']);
    expect((await plan.decide(mcp('mcp__mine__lookup'))).decision).toBe('allow');
    expect(await plan.decide(mcp('mcp__mine__write'))).toMatchObject({ decision: 'deny', source: 'agent-mode' });
  });

  it('bad arguments are denied (schema): not an object, nested too deep', async () => {
    const e = await fx.engine({ mode: 'bypassPermissions' });
    expect(await e.decide(mcp('mcp__srv__echo', 'text'))).toMatchObject({ decision: 'deny', source: 'schema' });
    expect(await e.decide(mcp('mcp__srv__echo', [1]))).toMatchObject({ decision: 'deny', source: 'schema' });
    let deep: unknown = {};
    for (let i = 0; i < 100; i++) deep = { a: deep };
    expect(await e.decide(mcp('mcp__srv__echo', deep))).toMatchObject({ decision: 'deny', source: 'schema' });
  });

  it('names that are not MCP tool names stay unknown tools', async () => {
    const e = await fx.engine({ mode: 'bypassPermissions' });
    for (const name of ['mcp__', 'mcp__srv', 'mcp__srv__', 'mcp____x', 'mcp__a_b__c d', `mcp__s__${'x'.repeat(80)}`])
      expect((await e.decide(mcp(name))).source, name).toBe('unknown');
  });

  it('in an untrusted project a user allow rule asks (trust cap); a session rule lets it through', async () => {
    fx.trust.trusted = false;
    fx.settings('user', { allow: ['mcp__srv'] });
    fx.settings('project', { allow: ['mcp__proj'] });
    const e = await fx.engine({ mode: 'bypassPermissions' });
    expect(await e.decide(mcp('mcp__srv__echo'))).toMatchObject({ decision: 'ask', source: 'trust' });
    expect(await e.decide(mcp('mcp__other__echo'))).toMatchObject({ decision: 'ask', source: 'trust' });
    e.state.addSessionRule('allow', 'mcp__srv__echo');
    expect(await e.decide(mcp('mcp__srv__echo'))).toMatchObject({ decision: 'allow', source: 'session' });
  });

  it('the audit log names the server and the tool, with the arguments redacted', async () => {
    const log = new AuditLog({ configDir: fx.configDir });
    const token = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
    log.record('s1', mcp('mcp__gh__create_issue', { title: 'x', token }), {
      decision: 'ask',
      source: 'mode',
      rule: null,
      reason: 'r',
    });
    await log.flush();
    const line = JSON.parse(fs.readFileSync(path.join(fx.configDir, 'audit.jsonl'), 'utf8').trim()) as Record<
      string,
      unknown
    >;
    expect(line).toMatchObject({ tool: 'mcp__gh__create_issue', mcp: { server: 'gh', tool: 'create_issue' } });
    expect(JSON.stringify(line)).not.toContain(token);
  });

  it("an approval suggests the tool's own rule; 'session' adds it", async () => {
    const e = await fx.engine();
    const call = mcp('mcp__srv__echo', { text: 'x' });
    expect(await proposeRules(e, call)).toEqual(['mcp__srv__echo']);
    expect(await applyApproval(e, call, { kind: 'session' })).toMatchObject({ decision: 'allow', source: 'approval' });
    expect(await e.decide(call)).toMatchObject({ decision: 'allow', source: 'session', rule: 'mcp__srv__echo' });
    expect((await e.decide(mcp('mcp__srv__other'))).decision).toBe('ask');
  });
});
