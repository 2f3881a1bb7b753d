import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TurnCheckpoints } from '../../../src/main/core/checkpoints/turn-checkpoints';

// During a run, the files are noted when each tool call that may change them starts and ends: a change between two
// calls (the model thinking, a person being asked) is someone else's, a change while a call runs is the agent's.
// Real files, real git; the calls are driven as main's gate and the worker's events drive them.

let root: string;
let configDir: string;
let project: string;
let problems: string[];
let savedHome: string | undefined;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-ckpt-windows-')));
  configDir = path.join(root, 'config');
  project = path.join(root, 'project');
  fs.mkdirSync(configDir);
  fs.mkdirSync(project);
  fs.mkdirSync(path.join(root, 'home'));
  savedHome = process.env.HOME;
  process.env.HOME = path.join(root, 'home');
  for (const name of ['a', 'b', 'c', 'd']) fs.writeFileSync(path.join(project, `${name}.txt`), `${name} v1\n`);
  problems = [];
});
afterEach(() => {
  process.env.HOME = savedHome;
  fs.rmSync(root, { recursive: true, force: true });
});

const write = (name: string, text: string): void => fs.writeFileSync(path.join(project, name), text);

function turns(): TurnCheckpoints {
  return new TurnCheckpoints(configDir, project, {
    onProblem: (m) => problems.push(m),
    sessionId: () => 's',
    running: () => false,
  });
}

describe('the moments of a run', () => {
  it('tells the person\u2019s changes between calls from the agent\u2019s during them', async () => {
    const t = turns();
    const entry = await t.before({ sessionId: 's', runId: 'r', prompt: 'p', agentMode: 'chat' });
    write('a.txt', 'person, before the first call\n');
    await t.toolStarting('\0t1', 'write_file');
    write('b.txt', 'agent\n');
    await t.toolEnded('t1');
    write('c.txt', 'person, between calls\n');
    // A read-only call is not a moment: the person's change around it stays theirs.
    await t.toolStarting('\0t2', 'read_file');
    await t.toolFinished('\0t2');
    await t.toolStarting('\0t3', 'run_command');
    write('d.txt', 'agent\n');
    await t.toolFinished('\0t3');
    await t.after(entry);
    const diff = await t.diff(entry!.id);
    expect(diff.files.map((f) => `${f.path}${f.external ? ' (outside)' : ''}`)).toEqual([
      'a.txt (outside)',
      'b.txt',
      'c.txt (outside)',
      'd.txt',
    ]);
    expect(problems).toEqual([]);
  });

  it('a run that ends while a call still runs (cancelled) counts the rest as the agent\u2019s', async () => {
    const t = turns();
    const entry = await t.before({ sessionId: 's', runId: 'r', prompt: 'p', agentMode: 'chat' });
    await t.toolStarting('agent-1\0t1', 'task');
    write('a.txt', 'sub-agent\n');
    await t.after(entry);
    const diff = await t.diff(entry!.id);
    expect(diff.files).toEqual([{ path: 'a.txt', action: 'restore', external: false }]);
  });

  it('a moment that cannot be noted makes the whole run count as someone else\u2019s, and says so', async () => {
    const t = turns();
    const entry = await t.before({ sessionId: 's', runId: 'r', prompt: 'p', agentMode: 'chat' });
    const rules = path.join(path.dirname(t.store.paths.gitDir), 'rules', entry!.view!);
    const view = fs.readFileSync(rules, 'utf8');
    fs.writeFileSync(rules, 'tampered\n');
    await t.toolStarting('\0t1', 'write_file');
    write('a.txt', 'agent\n');
    await t.toolFinished('\0t1');
    expect(problems.join('\n')).toMatch(/a moment of the run was not noted: .*does not match its name/);
    fs.writeFileSync(rules, view);
    await t.after(entry);
    expect((await t.store.list())[0]!.outsideUnknown).toBe(true);
    expect((await t.diff(entry!.id)).files).toEqual([{ path: 'a.txt', action: 'restore', external: true }]);
  });
});
