import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RpcEventSchema } from '../../src/shared/rpc-protocol';
import { reply, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic, FakeRequestBody } from '../support/fake-anthropic';
import { jsonLines, RpcClient, runGatehouse, sentToolResults, trustProject, withModelSandbox } from './agent-helpers';
import type { Sandbox } from './agent-helpers';

// Sub-agents (`<name>.md` definitions) started with the system tool `task`: same worker, same engine, every call
// judged as usual and labelled with the sub-agent; a background sub-agent's asks follow subagents.backgroundAsk.

let fake: FakeAnthropic;
let box: Sandbox;
const clients = withModelSandbox((f, b) => {
  fake = f;
  box = b;
});

function writeAgent(dir: string, name: string, frontMatter: string, body = 'You are a careful helper.'): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${name}.md`), `---\nname: ${name}\n${frontMatter}\n---\n${body}\n`);
}
const userAgents = (): string => path.join(box.configDir, 'agents');
const settings = (yaml: string): void => fs.writeFileSync(path.join(box.configDir, 'settings.yaml'), yaml);
const toolNames = (body: FakeRequestBody): string[] => (body.tools ?? []).map((t) => t.name);
const trust = (): Promise<void> => trustProject(box);
async function runJson(...args: string[]): Promise<Array<Record<string, unknown>>> {
  const r = await runGatehouse(['run', '--output', 'json', '--project', box.project, ...args], box.env, box.home);
  expect(r.code, r.stderr).toBe(0);
  return jsonLines(r.stdout).map((e) => RpcEventSchema.parse(e) as Record<string, unknown>);
}
const agentEvents = (events: Array<Record<string, unknown>>): Array<Record<string, unknown>> =>
  events.filter((e) => e.type === 'agent').map((e) => e.event as Record<string, unknown>);
const decided = (events: Array<Record<string, unknown>>, id: string): Record<string, unknown> | undefined =>
  agentEvents(events).find((e) => e.type === 'tool_call_decided' && e.id === id);
const resultOf = (body: FakeRequestBody, id: string): string =>
  String(sentToolResults(body).find((b) => b.tool_use_id === id)?.content ?? '');
const exists = (name: string): boolean => fs.existsSync(path.join(box.project, name));

/** Parent: task -> sub-agent: `calls` (one turn) then "sub done" -> parent: "all done". */
function script(agent: string, background: boolean, ...calls: ReturnType<typeof toolUse>[]): void {
  fake.enqueue(
    reply(toolUse('toolu_task', 'task', { agent, prompt: 'do the thing', ...(background ? { background } : {}) })),
    reply(...calls),
    reply(text('sub done')),
    reply(text('all done')),
  );
}

describe('sub-agents', () => {
  it("a foreground sub-agent's ask reaches the person labelled with it; the audit log names it", async () => {
    writeAgent(userAgents(), 'writer', 'description: Writes files\ntools: Write, Read', 'WRITER-PROMPT');
    script('writer', false, toolUse('toolu_w', 'write_file', { path: 'by-sub.txt', content: 'hi' }));
    const c = new RpcClient(['--project', box.project], box.env, box.home);
    clients.push(c);
    await c.waitFor((e) => e.type === 'ready');
    c.send({ type: 'prompt', id: 'p1', text: 'delegate' });
    const ask = await c.waitFor((e) => e.type === 'approval_request');
    expect(ask).toMatchObject({ tool: 'write_file', agent: { name: 'writer', id: expect.stringMatching(/^writer-/) } });
    c.send({ type: 'approve', requestId: ask.requestId, decision: 'once' });
    const result = await c.waitFor((e) => e.type === 'result');
    expect(result).toMatchObject({ status: 'completed', finalText: 'all done' });
    expect(fs.readFileSync(path.join(box.project, 'by-sub.txt'), 'utf8')).toBe('hi');
    // The sub-agent's own prompt and tools; the parent got its final answer.
    const sub = fake.requests[1]!.body;
    expect(String(sub.system)).toContain('WRITER-PROMPT');
    expect(toolNames(sub)).toEqual(['read_file', 'write_file']);
    expect(resultOf(fake.requests[3]!.body, 'toolu_task')).toBe('sub done');
    const events = agentEvents(c.events);
    const started = events.find((e) => e.type === 'subagent_started')!;
    expect(started).toMatchObject({ id: 'toolu_task', name: 'writer', background: false });
    expect(events.find((e) => e.type === 'tool_call_decided' && e.id === 'toolu_w')).toMatchObject({
      agent: started.agentId,
      allow: true,
      source: 'approval',
    });
    expect(events.find((e) => e.type === 'subagent_finished')).toMatchObject({
      agentId: started.agentId,
      status: 'completed',
    });
    expect(await c.close()).toBe(0);
    const audit = fs.readFileSync(path.join(box.configDir, 'audit.jsonl'), 'utf8').trim().split('\n');
    const lines = audit.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.filter((l) => l.tool === 'write_file').every((l) => l.agent === started.agentId)).toBe(true);
    expect(lines.find((l) => l.tool === 'task')).not.toHaveProperty('agent');
  });

  it('background, backgroundAsk deny (default): the ask is denied without asking anyone; the call never runs', async () => {
    writeAgent(userAgents(), 'writer', 'description: Writes files\ntools: Write');
    script('writer', true, toolUse('toolu_w', 'write_file', { path: 'marker.txt', content: 'x' }));
    const c = new RpcClient(['--project', box.project], box.env, box.home);
    clients.push(c);
    await c.waitFor((e) => e.type === 'ready');
    c.send({ type: 'prompt', id: 'p1', text: 'delegate' });
    await c.waitFor((e) => e.type === 'result');
    expect(c.events.some((e) => e.type === 'approval_request')).toBe(false);
    expect(decided(c.events, 'toolu_w')).toMatchObject({
      allow: false,
      reason: expect.stringContaining('approval required'),
    });
    expect(agentEvents(c.events).find((e) => e.type === 'subagent_started')).toMatchObject({
      background: true,
      backgroundAsk: 'deny',
    });
    expect(exists('marker.txt')).toBe(false);
    expect(await c.close()).toBe(0);
  });

  it('background, backgroundAsk continue: an ask of the mode runs; deny rules, hard checks and allowed names still stop', async () => {
    await trust();
    settings('subagents:\n  backgroundAsk: continue\npermissions:\n  deny: ["Edit(blocked.txt)"]\n');
    writeAgent(userAgents(), 'writer', 'description: Writes files\ntools: Write, Bash');
    script(
      'writer',
      true,
      toolUse('toolu_ok', 'write_file', { path: 'ran.txt', content: 'x' }),
      toolUse('toolu_rule', 'write_file', { path: 'blocked.txt', content: 'x' }),
      toolUse('toolu_hard', 'write_file', {
        path: '.gatehouse/settings.yaml',
        content: 'permissions: {mode: bypassPermissions}',
      }),
      toolUse('toolu_cmd', 'run_command', { command: 'sudo touch root.txt' }),
      toolUse('toolu_name', 'edit_file', { path: 'ran.txt', old_string: 'x', new_string: 'y' }),
    );
    const events = await runJson('delegate');
    expect(decided(events, 'toolu_ok')).toMatchObject({
      allow: true,
      source: 'mode',
      reason: expect.stringContaining('backgroundAsk: continue'),
    });
    expect(decided(events, 'toolu_rule')).toMatchObject({ allow: false, source: 'user', rule: 'Edit(blocked.txt)' });
    expect(decided(events, 'toolu_hard')).toMatchObject({ allow: false, source: 'hard' });
    expect(decided(events, 'toolu_cmd')).toMatchObject({ allow: false, source: 'hard' });
    // edit_file is not among the sub-agent's tools: the engine's mode ask was continued, the execution gate refused.
    expect(resultOf(fake.requests[2]!.body, 'toolu_name')).toMatch(/^tool_not_allowed: edit_file/);
    expect(fs.readFileSync(path.join(box.project, 'ran.txt'), 'utf8')).toBe('x');
    expect(exists('blocked.txt')).toBe(false);
    expect(exists('root.txt')).toBe(false);
  });

  it('background, backgroundAsk continue: nothing runs without a person in an untrusted project or without the sandbox', async () => {
    settings('subagents:\n  backgroundAsk: continue\n');
    writeAgent(userAgents(), 'writer', 'description: Writes files\ntools: Write');
    script('writer', true, toolUse('toolu_w', 'write_file', { path: 'untrusted.txt', content: 'x' }));
    const untrusted = await runJson('delegate');
    // Trust still applies: an untrusted project's writes ask (trust), and an ask nobody answers is denied.
    expect(decided(untrusted, 'toolu_w')).toMatchObject({
      allow: false,
      source: 'trust',
      reason: expect.stringContaining('nobody watches a background sub-agent'),
    });
    expect(exists('untrusted.txt')).toBe(false);

    await trust();
    writeAgent(userAgents(), 'runner', 'description: Runs commands\ntools: Bash');
    script('runner', true, toolUse('toolu_c', 'run_command', { command: 'touch unsandboxed.txt' }));
    const r = await runGatehouse(
      ['run', '--output', 'json', '--project', box.project, 'delegate'],
      { ...box.env, GATEHOUSE_BWRAP: path.join(box.home, 'no-bwrap') },
      box.home,
    );
    expect(r.code, r.stderr).toBe(0);
    const noSandbox = jsonLines(r.stdout);
    expect(decided(noSandbox, 'toolu_c')).toMatchObject({ allow: false, source: 'hard' });
    expect(exists('unsandboxed.txt')).toBe(false);
  });

  it("a sub-agent's agent mode: plan shows read-only tools and a forged write is denied", async () => {
    writeAgent(userAgents(), 'planner', 'description: Plans\nagentMode: plan');
    script('planner', false, toolUse('toolu_w', 'write_file', { path: 'plan.txt', content: 'x' }));
    const events = await runJson('--mode', 'bypassPermissions', 'delegate');
    expect(toolNames(fake.requests[1]!.body)).toEqual(['read_file', 'find_files', 'search_code']);
    expect(decided(events, 'toolu_w')).toMatchObject({ allow: false, source: 'agent-mode' });
    expect(exists('plan.txt')).toBe(false);
  });

  it('a sub-agent cannot widen its tools: no task of its own, and the tools of an active skill bound it', async () => {
    await trust();
    writeAgent(userAgents(), 'helper', 'description: Helps');
    const skill = path.join(box.configDir, 'skills', 'reader');
    fs.mkdirSync(skill, { recursive: true });
    fs.writeFileSync(
      path.join(skill, 'SKILL.md'),
      '---\nname: reader\ndescription: Reads\nallowed-tools: Read\n---\nb\n',
    );
    fake.enqueue(
      reply(toolUse('toolu_s', 'load_skill', { name: 'reader' })),
      reply(toolUse('toolu_task', 'task', { agent: 'helper', prompt: 'go' })),
      reply(
        toolUse('toolu_nested', 'task', { agent: 'helper', prompt: 'more tools please' }),
        toolUse('toolu_w', 'write_file', { path: 'wide.txt', content: 'x' }),
      ),
      reply(text('sub done')),
      reply(text('all done')),
    );
    const events = await runJson('--mode', 'bypassPermissions', 'delegate');
    // The parent under the skill still has task (a system tool); the sub-agent gets only what the parent may use.
    expect(toolNames(fake.requests[1]!.body)).toEqual(['read_file', 'load_skill', 'task']);
    expect(toolNames(fake.requests[2]!.body)).toEqual(['read_file', 'load_skill']);
    const sub = fake.requests[3]!.body;
    expect(resultOf(sub, 'toolu_nested')).toMatch(/^tool_not_allowed: task is not available/);
    expect(resultOf(sub, 'toolu_w')).toMatch(/^tool_not_allowed: write_file/);
    expect(exists('wide.txt')).toBe(false);
    expect(agentEvents(events).filter((e) => e.type === 'subagent_started')).toHaveLength(1);
  });

  it("gatehouse run's text output: [skill] and [agent] lines, and the sub-agent's calls labelled", async () => {
    writeAgent(userAgents(), 'writer', 'description: Writes files\ntools: Write');
    script('writer', true, toolUse('toolu_w', 'write_file', { path: 'text.txt', content: 'x' }));
    const r = await runGatehouse(['run', '--project', box.project, 'delegate'], box.env, box.home);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^\[agent\] writer-[0-9a-f]+ started \(chat mode, in the background \(its asks: deny\)\)$/m,
    );
    expect(r.stdout).toMatch(
      /^\[writer-[0-9a-f]+\] \[tool\] write_file text\.txt -> deny \(trust\): approval required: nobody watches a background sub-agent/m,
    );
    expect(r.stdout).toMatch(/^\[agent\] writer-[0-9a-f]+ completed after 2 turns$/m);
    expect(exists('text.txt')).toBe(false);
  });

  it("cancel while a sub-agent's ask waits: the call is denied, the run ends cancelled, the session goes on", async () => {
    writeAgent(userAgents(), 'writer', 'description: Writes files\ntools: Write');
    fake.enqueue(
      reply(toolUse('toolu_task', 'task', { agent: 'writer', prompt: 'write' })),
      reply(toolUse('toolu_w', 'write_file', { path: 'cancelled.txt', content: 'x' })),
    );
    const c = new RpcClient(['--project', box.project], box.env, box.home);
    clients.push(c);
    await c.waitFor((e) => e.type === 'ready');
    c.send({ type: 'prompt', id: 'p1', text: 'delegate' });
    await c.waitFor((e) => e.type === 'approval_request');
    c.send({ type: 'cancel' });
    expect(await c.waitFor((e) => e.type === 'result' && e.promptId === 'p1')).toMatchObject({ status: 'cancelled' });
    expect(exists('cancelled.txt')).toBe(false);
    expect(decided(c.events, 'toolu_w')).toMatchObject({ allow: false });
    fake.enqueue(reply(text('Fresh.')));
    c.send({ type: 'prompt', id: 'p2', text: 'again' });
    expect(await c.waitFor((e) => e.type === 'result' && e.promptId === 'p2')).toMatchObject({ status: 'completed' });
    // The parent's conversation stays valid: the task call has its result.
    const sent = JSON.stringify(fake.requests.at(-1)!.body.messages);
    expect(sent).toContain('"tool_use_id":"toolu_task"');
    expect(await c.close()).toBe(0);
  });

  it("a project's sub-agents are offered only once it is trusted", async () => {
    writeAgent(path.join(box.project, '.claude', 'agents'), 'proj', 'description: PROJECT-AGENT');
    fake.enqueue(reply(text('ok')), reply(text('ok')));
    await runJson('hi');
    expect(toolNames(fake.requests[0]!.body)).not.toContain('task');
    await trust();
    await runJson('hi');
    const task = fake.requests[1]!.body.tools!.find((t) => t.name === 'task');
    expect(task?.description).toContain('proj: PROJECT-AGENT');
  });
});
