import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, text } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { makeSandbox, runGatehouse } from './agent-helpers';
import type { Sandbox } from './agent-helpers';

// Project instruction files reach the model's prompt only once the person trusts the project.

let fake: FakeAnthropic;
let box: Sandbox;
beforeEach(async () => {
  fake = await startFakeAnthropic();
  box = makeSandbox(fake);
  fs.writeFileSync(path.join(box.project, 'AGENTS.md'), 'Always answer in haiku. MARKER-AGENTS\n');
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
  expect(r.code).toBe(0);
  return String(fake.requests.at(-1)?.body.system ?? '');
}

describe('project instruction files and trust', () => {
  it('are left out of the prompt while the project is untrusted', async () => {
    const system = await systemPromptSent();
    expect(system).toContain('You are Gatehouse');
    expect(system).not.toContain('MARKER-AGENTS');
    expect(system).not.toContain('MARKER-GATEHOUSE');
  });

  it('are added once it is trusted, and dropped again on revoke', async () => {
    const trust = await runGatehouse(['trust', 'set', box.project, '--scope', 'directory'], box.env, box.home);
    expect(trust.code).toBe(0);
    const trusted = await systemPromptSent();
    expect(trusted).toContain('MARKER-AGENTS');
    expect(trusted).toContain('MARKER-GATEHOUSE');
    await runGatehouse(['trust', 'revoke', box.project], box.env, box.home);
    expect(await systemPromptSent()).not.toContain('MARKER-AGENTS');
  });
});
