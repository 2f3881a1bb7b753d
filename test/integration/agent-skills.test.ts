import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RpcEventSchema } from '../../src/shared/rpc-protocol';
import { reply, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic, FakeRequestBody } from '../support/fake-anthropic';
import { jsonLines, RpcClient, runGatehouse, sentToolResults, trustProject, withModelSandbox } from './agent-helpers';
import type { Sandbox } from './agent-helpers';

// Skills (SKILL.md folders): offered by name and description, loaded with the system tool load_skill, and while one
// is active its allowed-tools narrow the tools: the definitions sent to the model and the gate before execution.

let fake: FakeAnthropic;
let box: Sandbox;
const clients = withModelSandbox((f, b) => {
  fake = f;
  box = b;
});

function writeSkill(dir: string, name: string, frontMatter: string, body: string): string {
  const folder = path.join(dir, name);
  fs.mkdirSync(folder, { recursive: true });
  const file = path.join(folder, 'SKILL.md');
  fs.writeFileSync(file, `---\n${frontMatter}\n---\n${body}\n`);
  return file;
}
const userSkills = (): string => path.join(box.configDir, 'skills');
const settings = (yaml: string): void => fs.writeFileSync(path.join(box.configDir, 'settings.yaml'), yaml);
const toolNames = (body: FakeRequestBody): string[] => (body.tools ?? []).map((t) => t.name);
const trust = (): Promise<void> => trustProject(box);
async function runJson(...args: string[]): Promise<Array<Record<string, unknown>>> {
  const r = await runGatehouse(['run', '--output', 'json', '--project', box.project, ...args], box.env, box.home);
  expect(r.code, r.stderr).toBe(0);
  return jsonLines(r.stdout).map((e) => RpcEventSchema.parse(e) as Record<string, unknown>);
}
const decided = (events: Array<Record<string, unknown>>, id: string): Record<string, unknown> | undefined =>
  events
    .map((e) => e.event as Record<string, unknown> | undefined)
    .find((e) => e?.type === 'tool_call_decided' && e.id === id);
const resultOf = (body: FakeRequestBody, id: string): string =>
  String(sentToolResults(body).find((b) => b.tool_use_id === id)?.content ?? '');

describe('skills', () => {
  it('a forged call outside the active skill is refused at execution although an allow rule allows it', async () => {
    await trust();
    settings('permissions:\n  allow: ["Bash(touch *)"]\n');
    writeSkill(
      userSkills(),
      'reader',
      'name: reader\ndescription: Reads code only\nallowed-tools: Read, Grep',
      'SKILL-BODY-MARKER',
    );
    fake.enqueue(
      reply(toolUse('toolu_s', 'load_skill', { name: 'reader' })),
      reply(toolUse('toolu_c', 'run_command', { command: 'touch forged.txt' })),
      reply(text('done')),
    );
    const events = await runJson('look around');
    const [first, second, third] = fake.requests.map((r) => r.body);
    // Before: every tool and load_skill, whose description (and the system prompt) names the skill.
    expect(toolNames(first!)).toEqual(expect.arrayContaining(['run_command', 'write_file', 'load_skill']));
    expect(first!.tools!.find((t) => t.name === 'load_skill')!.description).toContain('reader: Reads code only');
    expect(String(first!.system)).toContain('reader: Reads code only');
    expect(String(first!.system)).not.toContain('SKILL-BODY-MARKER');
    // Loaded: the body comes back, and the model is shown the skill's tools and the system tool only.
    expect(resultOf(second!, 'toolu_s')).toContain('SKILL-BODY-MARKER');
    expect(toolNames(second!)).toEqual(['read_file', 'search_code', 'load_skill']);
    expect(decided(events, 'toolu_s')).toMatchObject({ allow: true, source: 'system' });
    // The engine allowed the forged command (the rule), the execution gate refused it.
    expect(decided(events, 'toolu_c')).toMatchObject({ allow: true, source: 'user', rule: 'Bash(touch *)' });
    expect(resultOf(third!, 'toolu_c')).toMatch(
      /^tool_not_allowed: run_command is not in the allowed tools of the active skill "reader"/,
    );
    expect(fs.existsSync(path.join(box.project, 'forged.txt'))).toBe(false);
    const loaded = events.map((e) => e.event as { type?: string }).find((e) => e?.type === 'skill_loaded');
    expect(loaded).toMatchObject({ name: 'reader', allowedTools: ['read_file', 'search_code'] });
  });

  it('a forged call outside the active skill is refused at execution after the person approved it', async () => {
    writeSkill(userSkills(), 'reader', 'name: reader\ndescription: Reads code only\nallowed-tools: [Read]', 'body');
    fake.enqueue(
      reply(toolUse('toolu_s', 'load_skill', { name: 'reader' })),
      reply(toolUse('toolu_w', 'write_file', { path: 'approved.txt', content: 'x' })),
      reply(text('done')),
    );
    const c = new RpcClient(['--project', box.project], box.env, box.home);
    clients.push(c);
    await c.waitFor((e) => e.type === 'ready');
    c.send({ type: 'prompt', id: 'p1', text: 'go' });
    const ask = await c.waitFor((e) => e.type === 'approval_request');
    expect(ask).toMatchObject({ tool: 'write_file' });
    c.send({ type: 'approve', requestId: ask.requestId, decision: 'once' });
    await c.waitFor((e) => e.type === 'result');
    expect(resultOf(fake.requests[2]!.body, 'toolu_w')).toMatch(/^tool_not_allowed: write_file/);
    expect(fs.existsSync(path.join(box.project, 'approved.txt'))).toBe(false);
    expect(await c.close()).toBe(0);
  });

  it('load_skill works under rules that deny every tool (a system tool is never judged by rules)', async () => {
    settings('permissions:\n  deny: [Read, Glob, Grep, Edit, Write, Bash]\n');
    writeSkill(userSkills(), 'notes', 'name: notes\ndescription: Take notes', 'NOTES-BODY');
    fake.enqueue(
      reply(toolUse('toolu_s', 'load_skill', { name: 'notes' })),
      reply(toolUse('toolu_r', 'read_file', { path: 'x.txt' })),
      reply(text('done')),
    );
    const events = await runJson('notes');
    expect(decided(events, 'toolu_s')).toMatchObject({ allow: true, source: 'system', rule: null });
    expect(resultOf(fake.requests[1]!.body, 'toolu_s')).toContain('NOTES-BODY');
    expect(decided(events, 'toolu_r')).toMatchObject({ allow: false, source: 'user', rule: 'Read' });
  });

  it('plan mode intersects: only the read-only tools the skill allows are shown; the others are refused', async () => {
    writeSkill(userSkills(), 'fixer', 'name: fixer\ndescription: Fix things\nallowed-tools: Read, Bash, Write', 'b');
    fake.enqueue(
      reply(toolUse('toolu_s', 'load_skill', { name: 'fixer' })),
      reply(
        toolUse('toolu_f', 'find_files', { pattern: '*' }),
        toolUse('toolu_c', 'run_command', { command: 'touch p' }),
      ),
      reply(text('Plan: nothing.')),
    );
    const events = await runJson('--agent-mode', 'plan', '--mode', 'bypassPermissions', 'plan it');
    expect(toolNames(fake.requests[0]!.body)).toEqual(['read_file', 'find_files', 'search_code', 'load_skill']);
    expect(toolNames(fake.requests[1]!.body)).toEqual(['read_file', 'load_skill']);
    const results = fake.requests[2]!.body;
    expect(resultOf(results, 'toolu_f')).toMatch(/^tool_not_allowed: find_files is not in the allowed tools/);
    expect(decided(events, 'toolu_c')).toMatchObject({ allow: false, source: 'agent-mode' });
    expect(fs.existsSync(path.join(box.project, 'p'))).toBe(false);
  });

  it('a malformed SKILL.md is reported with its path and not offered; the others are', async () => {
    const bad = writeSkill(userSkills(), 'broken', 'name: Broken Name\ndescription: [unclosed', 'x');
    writeSkill(userSkills(), 'good', 'name: good\ndescription: Works', 'x');
    const listed = await runGatehouse(['skills', 'list', '--project', box.project, '--json'], box.env, box.home);
    expect(listed.code).toBe(1);
    expect(listed.stderr).toContain(`error: ${bad}: the front matter is not valid YAML`);
    const json = JSON.parse(listed.stdout) as { skills: { name: string }[]; problems: { path: string }[] };
    expect(json.skills.map((s) => s.name)).toEqual(['good']);
    expect(json.problems.map((p) => p.path)).toEqual([bad]);
    fake.enqueue(reply(text('ok')));
    await runJson('hi');
    const description = fake.requests[0]!.body.tools!.find((t) => t.name === 'load_skill')!.description ?? '';
    expect(description).toContain('good: Works');
    expect(description).not.toContain('roken');
  });

  it("a project's skills are offered only once it is trusted; the person's own skill keeps its name", async () => {
    const project = path.join(box.project, '.claude', 'skills');
    writeSkill(project, 'deploy', 'name: deploy\ndescription: PROJECT-DEPLOY', 'x');
    writeSkill(project, 'mine', 'name: mine\ndescription: PROJECT-MINE', 'x');
    writeSkill(userSkills(), 'mine', 'name: mine\ndescription: USER-MINE', 'x');
    fake.enqueue(reply(text('ok')), reply(text('ok')));
    await runJson('hi');
    const untrusted = fake.requests[0]!.body.tools!.find((t) => t.name === 'load_skill')!.description ?? '';
    expect(untrusted).toContain('USER-MINE');
    expect(untrusted).not.toContain('PROJECT-');
    await trust();
    await runJson('hi');
    const trusted = fake.requests[1]!.body.tools!.find((t) => t.name === 'load_skill')!.description ?? '';
    expect(trusted).toContain('deploy: PROJECT-DEPLOY');
    expect(trusted).toContain('mine: USER-MINE');
    expect(trusted).not.toContain('PROJECT-MINE');
  });
});
