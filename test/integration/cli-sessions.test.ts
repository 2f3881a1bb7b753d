import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { reply, text } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { runGatehouse, withFakeModel } from './agent-helpers';
import type { Sandbox } from './agent-helpers';

let fake: FakeAnthropic;
let box: Sandbox;
withFakeModel((f, b) => {
  fake = f;
  box = b;
});

describe('gatehouse sessions', () => {
  it('lists the sessions `gatehouse run` saved, and deletes one', async () => {
    fake.enqueue(reply(text('first answer')));
    const run = await runGatehouse(['run', '--project', box.project, 'remember the number 42'], box.env, box.home);
    expect(run.code).toBe(0);
    const id = /session ([0-9a-f-]{36})/.exec(run.stderr)?.[1];
    expect(id).toBeDefined();

    const listed = await runGatehouse(['sessions', 'list', '--json'], box.env, box.home);
    expect(listed.code).toBe(0);
    const sessions = JSON.parse(listed.stdout) as Array<{ id: string; projectRoot: string; lastPrompt: string | null }>;
    expect(sessions).toEqual([
      expect.objectContaining({ id, projectRoot: box.project, lastPrompt: 'remember the number 42' }),
    ]);
    const other = await runGatehouse(['sessions', 'list', '--project', '/nowhere', '--json'], box.env, box.home);
    expect(JSON.parse(other.stdout)).toEqual([]);

    const deleted = await runGatehouse(['sessions', 'delete', id!], box.env, box.home);
    expect(deleted.code).toBe(0);
    expect(fs.readdirSync(`${box.configDir}/sessions`).filter((f) => f.endsWith('.jsonl'))).toEqual([]);
    const again = await runGatehouse(['sessions', 'delete', id!], box.env, box.home);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`no session ${id}`);
  });

  it('refuses ids that are not session ids (no path tricks) and bad actions', async () => {
    const traversal = await runGatehouse(['sessions', 'delete', '../trust'], box.env, box.home);
    expect(traversal.code).toBe(2);
    expect(traversal.stderr).toMatch(/not a session id/);
    const unknown = await runGatehouse(['sessions', 'frobnicate'], box.env, box.home);
    expect(unknown.code).toBe(2);
  });
});
