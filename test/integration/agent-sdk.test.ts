import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { sentToolResults, withFakeModel } from './agent-helpers';
import type { Sandbox } from './agent-helpers';

// The SDK as a user gets it: a script in its own folder that does `require('gatehouse')` (the package installed
// as a link in node_modules, resolved through package.json "exports"), with an `approve` callback.

const REPO = path.resolve(__dirname, '../..');

let fake: FakeAnthropic;
let box: Sandbox;
withFakeModel((f, b) => {
  fake = f;
  box = b;
});

const SCRIPT = `
const { createSession } = require('gatehouse');
(async () => {
  const asked = [];
  const session = await createSession({
    project: process.argv[2],
    approve: async (request) => {
      asked.push({ tool: request.tool, path: request.preview && request.preview.path, reason: request.reason });
      return request.input.path === 'yes.txt' ? 'once' : { kind: 'deny', note: 'not that one' };
    },
  });
  const run = session.prompt('write two files');
  const types = [];
  const decided = [];
  for await (const event of run.events) {
    types.push(event.type === 'agent' ? event.event.type : event.type);
    if (event.event.type === 'tool_call_decided') decided.push({ id: event.event.id, allow: event.event.allow, answer: event.event.answer });
  }
  const result = await run;
  await session.close();
  process.stdout.write(JSON.stringify({ sessionId: session.id, asked, types, decided, result }));
})().catch((err) => {
  process.stderr.write(String(err && err.stack || err));
  process.exit(1);
});
`;

function runScript(app: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(app, 'main.cjs'), box.project], { cwd: app, env: box.env });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe("the SDK: createSession from 'gatehouse'", () => {
  it('runs a prompt; the approve callback allows one write and denies the other with a note', async () => {
    const app = path.join(box.home, 'app');
    fs.mkdirSync(path.join(app, 'node_modules'), { recursive: true });
    fs.symlinkSync(REPO, path.join(app, 'node_modules', 'gatehouse'), 'dir');
    fs.writeFileSync(path.join(app, 'main.cjs'), SCRIPT);
    fake.enqueue(
      reply(
        toolUse('toolu_yes', 'write_file', { path: 'yes.txt', content: 'ok\n' }),
        toolUse('toolu_no', 'write_file', { path: 'no.txt', content: 'no\n' }),
      ),
      reply(text('One of two.')),
    );
    const r = await runScript(app);
    expect(r.stderr).not.toContain('Error');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as {
      asked: Array<{ tool: string; path: string }>;
      types: string[];
      decided: unknown[];
      result: { status: string; finalText: string };
    };
    expect(out.asked.map((a) => a.path)).toEqual(['yes.txt', 'no.txt']);
    expect(out.result).toMatchObject({ status: 'completed', finalText: 'One of two.' });
    // One decision event per call, each with the answer the callback gave.
    expect(out.decided).toEqual([
      { id: 'toolu_yes', allow: true, answer: { choice: 'once' } },
      { id: 'toolu_no', allow: false, answer: { choice: 'deny', note: 'not that one' } },
    ]);
    expect(out.types).toContain('done');
    expect(fs.readFileSync(path.join(box.project, 'yes.txt'), 'utf8')).toBe('ok\n');
    expect(fs.existsSync(path.join(box.project, 'no.txt'))).toBe(false);
    const results = sentToolResults(fake.requests[1]!.body);
    expect(results[0]).toMatchObject({ tool_use_id: 'toolu_yes', is_error: false });
    expect(results[1]).toMatchObject({ tool_use_id: 'toolu_no', is_error: true });
    expect(String(results[1]!.content)).toContain('not that one');
  });

  it("exposes a sub-agent's events: its start and end, and its calls labelled with its id (the approval too)", async () => {
    const app = path.join(box.home, 'app');
    fs.mkdirSync(path.join(app, 'node_modules'), { recursive: true });
    fs.symlinkSync(REPO, path.join(app, 'node_modules', 'gatehouse'), 'dir');
    fs.writeFileSync(
      path.join(app, 'main.cjs'),
      SCRIPT.replace(
        'if (event.event.type',
        "if (event.event.agent || event.event.type.startsWith('subagent')) decided.push(event.event); else if (event.event.type",
      ).replace('asked.push({', 'asked.push({ agent: request.agent && request.agent.name,'),
    );
    fs.mkdirSync(path.join(box.configDir, 'agents'));
    fs.writeFileSync(
      path.join(box.configDir, 'agents', 'writer.md'),
      '---\nname: writer\ndescription: Writes\ntools: Write\n---\nWrite.\n',
    );
    fake.enqueue(
      reply(toolUse('toolu_task', 'task', { agent: 'writer', prompt: 'write yes.txt' })),
      reply(toolUse('toolu_yes', 'write_file', { path: 'yes.txt', content: 'ok\n' })),
      reply(text('sub done')),
      reply(text('All done.')),
    );
    const r = await runScript(app);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { asked: Array<{ agent?: string }>; decided: Array<Record<string, unknown>> };
    expect(out.asked).toEqual([expect.objectContaining({ agent: 'writer' })]);
    const started = out.decided.find((e) => e.type === 'subagent_started')!;
    expect(started).toMatchObject({ id: 'toolu_task', name: 'writer', background: false });
    const labelled = out.decided.filter((e) => e.agent === started.agentId).map((e) => e.type);
    expect(labelled).toEqual(['tool_call_started', 'tool_call_decided', 'tool_call_finished']);
    expect(out.decided.at(-1)).toMatchObject({
      type: 'subagent_finished',
      agentId: started.agentId,
      status: 'completed',
    });
    expect(fs.readFileSync(path.join(box.project, 'yes.txt'), 'utf8')).toBe('ok\n');
  });
});
