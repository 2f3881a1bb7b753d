import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { runGatehouse, sentToolResults, withTrustedProject } from './agent-helpers';
import type { Sandbox } from './agent-helpers';
import { createSession } from '../../src/main/shells/sdk';
import type { ApprovalRequest } from '../../src/main/shells/sdk';
import { findOnPath } from '../../src/sandbox/find-binary';

// The whole path (`gatehouse run` -> main's engine and gate -> the worker -> bubblewrap): a command the default mode
// allows as read-only runs in the read-only sandbox; the same command allowed by a rule or a person runs in the
// project-writable one. The command is `git status` in a trusted project whose .git/config names an fsmonitor
// hook: git runs it, and it tries to write into the project (code the analysis never saw, running under a
// read-only verdict).

const bwrap = process.platform === 'linux' ? await findOnPath('bwrap') : null;

let fake: FakeAnthropic;
let box: Sandbox;
withTrustedProject('gatehouse-agent-ro-', (f, b) => {
  fake = f;
  box = b;
});

/** A repository whose core.fsmonitor hook writes `hook-wrote.txt` into the project and says it ran. */
function repoWithWritingHook(): string {
  const gitEnv = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: box.project, env: gitEnv });
  const hook = path.join(box.project, '.fsmonitor.sh');
  const target = path.join(box.project, 'hook-wrote.txt');
  fs.writeFileSync(hook, `#!/bin/bash\necho HOOK-RAN >&2\necho written > '${target}'\nexit 1\n`, { mode: 0o755 });
  execFileSync('git', ['config', 'core.fsmonitor', hook], { cwd: box.project, env: gitEnv });
  return target;
}

async function gitStatusVia(args: string[]): Promise<{ stdout: string; content: string }> {
  fake.enqueue(reply(toolUse('toolu_g', 'run_command', { command: 'git status' })), reply(text('Done.')));
  const r = await runGatehouse(['run', '--project', box.project, ...args, 'look'], box.env, box.home);
  expect(r.code, r.stderr).toBe(0);
  const [result] = sentToolResults(fake.requests[1]!.body);
  return { stdout: r.stdout, content: String(result!.content) };
}

function auditOf(command: string): Array<Record<string, unknown>> {
  return fs
    .readFileSync(path.join(box.configDir, 'audit.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => (l.input as { command?: string } | undefined)?.command === command);
}

describe.skipIf(bwrap === null)('the sandbox matches the reason (real bubblewrap, through gatehouse run)', () => {
  it('allowed by the default mode as read-only: the hook runs, its write fails; the tool line and the audit say read-only', async () => {
    const target = repoWithWritingHook();
    const { stdout, content } = await gitStatusVia(['--mode', 'default']);
    expect(content).toContain('HOOK-RAN'); // the repository's code did run ...
    expect(fs.existsSync(target)).toBe(false); // ... and could not write the project
    expect(stdout).toMatch(/\[tool\] run_command git status -> allow \(mode\): .*\[read-only sandbox\]/);
    expect(auditOf('git status')).toEqual([expect.objectContaining({ decision: 'allow', sandbox: 'read-only' })]);
  });

  it('allowed by an allow rule: the workspace sandbox, where the same hook writes', async () => {
    const target = repoWithWritingHook();
    fs.writeFileSync(path.join(box.configDir, 'settings.yaml'), "permissions:\n  allow: ['Bash(git status)']\n");
    const { stdout, content } = await gitStatusVia(['--mode', 'default']);
    expect(content).toContain('HOOK-RAN');
    expect(fs.readFileSync(target, 'utf8')).toBe('written\n');
    expect(stdout).toMatch(
      /\[tool\] run_command git status -> allow \(user Bash\(git status\)\): .*\[sandbox: project writable\]/,
    );
    expect(auditOf('git status')).toEqual([
      expect.objectContaining({ decision: 'allow', source: 'user', sandbox: 'workspace' }),
    ]);
  });

  it('allowed by a person: the approval says where it runs, and it runs there (project writable)', async () => {
    const target = repoWithWritingHook();
    fake.enqueue(reply(toolUse('toolu_p', 'run_command', { command: 'git status' })), reply(text('Done.')));
    const asked: ApprovalRequest[] = [];
    const session = await createSession({
      project: box.project,
      configDir: box.configDir,
      env: box.env,
      mode: 'strict', // strict mode asks even for a read-only command
      approve: (r) => (asked.push(r), 'once'),
    });
    try {
      expect((await session.prompt('look')).status).toBe('completed');
    } finally {
      await session.close();
    }
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ tool: 'run_command', sandbox: 'workspace' });
    expect(fs.readFileSync(target, 'utf8')).toBe('written\n');
    expect(auditOf('git status').map((l) => [l.decision, l.source, l.sandbox])).toEqual([
      ['ask', 'mode', undefined],
      ['allow', 'approval', 'workspace'],
    ]);
  });
});
