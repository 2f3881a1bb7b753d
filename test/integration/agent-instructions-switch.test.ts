import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, text } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { makeSandbox, runGatehouse } from './agent-helpers';
import type { Sandbox } from './agent-helpers';

// Trust is specific: a trusted project whose decision leaves out "instructions" sends none of its instruction files
// to the model, while its other extensions (here: its allow rules) still load.

let fake: FakeAnthropic;
let box: Sandbox;
beforeEach(async () => {
  fake = await startFakeAnthropic();
  box = makeSandbox(fake);
  fs.writeFileSync(path.join(box.project, 'AGENTS.md'), 'MARKER-AGENTS\n');
  fs.writeFileSync(path.join(box.project, 'CLAUDE.md'), 'MARKER-CLAUDE\n');
  fs.mkdirSync(path.join(box.project, '.gatehouse'));
  fs.writeFileSync(path.join(box.project, '.gatehouse', 'instructions.md'), 'MARKER-GATEHOUSE\n');
});
afterEach(async () => {
  await fake.close();
  box.cleanup();
});

async function systemPromptSent(): Promise<string> {
  fake.enqueue(reply(text('ok')));
  const r = await runGatehouse(['run', '--project', box.project, 'hello'], box.env, box.home);
  expect(r.code, r.stderr).toBe(0);
  return String(fake.requests.at(-1)?.body.system ?? '');
}

const MARKERS = ['MARKER-AGENTS', 'MARKER-CLAUDE', 'MARKER-GATEHOUSE'];

describe('the instructions switch of a trust decision', () => {
  it('trusted without instructions: no instruction file reaches the prompt; switched on: all of them do', async () => {
    const set = await runGatehouse(
      ['trust', 'set', box.project, '--scope', 'directory', '--without', 'instructions'],
      box.env,
      box.home,
    );
    expect(set.code, set.stderr).toBe(0);
    const without = await systemPromptSent();
    expect(without).toContain('You are Gatehouse');
    for (const marker of MARKERS) expect(without).not.toContain(marker);

    const on = await runGatehouse(['trust', 'extensions', box.project, '--enable', 'instructions'], box.env, box.home);
    expect(on.code, on.stderr).toBe(0);
    const withThem = await systemPromptSent();
    for (const marker of MARKERS) expect(withThem).toContain(marker);

    // Off again (the decision keeps its scope): gone from the next prompt.
    const off = await runGatehouse(
      ['trust', 'extensions', box.project, '--disable', 'instructions'],
      box.env,
      box.home,
    );
    expect(off.code, off.stderr).toBe(0);
    const again = await systemPromptSent();
    for (const marker of MARKERS) expect(again).not.toContain(marker);
  });

  it('switching instructions off leaves the other extensions on: rules, hooks and MCP servers stay enabled', async () => {
    await runGatehouse(
      ['trust', 'set', box.project, '--scope', 'directory', '--without', 'instructions'],
      box.env,
      box.home,
    );
    const status = await runGatehouse(['trust', 'status', box.project, '--json'], box.env, box.home);
    const parsed = JSON.parse(status.stdout.trim().split('\n').pop() ?? '{}') as { extensions?: unknown };
    expect(parsed.extensions).toEqual({ rules: true, hooks: true, instructions: false, mcp: true });
  });
});
