import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TrustStore } from '../../../src/main/core/trust/trust-store';
import { makeFixture, type Fixture } from '../permission/fixture';
import { privateCli } from '../trust/helpers';
import { codeCacheEnv } from '../../support/code-cache-env';

// `gatehouse hook claude` as Claude Code runs it: the built CLI, Claude Code's PreToolUse JSON on stdin, under each
// of Claude Code's permission modes. The mode is only the fallback: no mode loosens a deny rule, a hard check,
// self-protection or the trust cap; a mode Gatehouse does not know is the strictest.

let fx: Fixture;
let built: ReturnType<typeof privateCli>;
beforeAll(() => {
  fx = makeFixture();
  built = privateCli();
  fx.settings('claudeProject', { deny: ['Bash(git push:*)'] });
}, 180_000);
afterAll(async () => {
  built.cleanup();
  await fx.cleanup();
});

interface Answer {
  code: number;
  stdout: string;
  stderr: string;
}

function hookClaude(input: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [built.cli, 'hook', 'claude'], {
      env: { ...fx.env, ...codeCacheEnv() },
      cwd: fx.project,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(JSON.stringify(input));
  });
}

/** Claude Code's PreToolUse input (hooks reference), under `mode`. */
function pre(mode: string | undefined, toolName: string, toolInput: Record<string, unknown>): Record<string, unknown> {
  return {
    session_id: 'sess-modes',
    transcript_path: path.join(fx.home, '.claude/projects/demo/sess-modes.jsonl'),
    cwd: fx.project,
    ...(mode === undefined ? {} : { permission_mode: mode }),
    hook_event_name: 'PreToolUse',
    tool_name: toolName,
    tool_input: toolInput,
    tool_use_id: 'toolu_01MODES',
  };
}

async function decide(
  mode: string | undefined,
  toolName: string,
  toolInput: Record<string, unknown>,
): Promise<{ decision: string; reason: string }> {
  const r = await hookClaude(pre(mode, toolName, toolInput));
  expect(r.code, r.stderr).toBe(0);
  const out = JSON.parse(r.stdout) as {
    hookSpecificOutput: { hookEventName: string; permissionDecision: string; permissionDecisionReason: string };
  };
  expect(out.hookSpecificOutput.hookEventName).toBe('PreToolUse');
  return {
    decision: out.hookSpecificOutput.permissionDecision,
    reason: out.hookSpecificOutput.permissionDecisionReason,
  };
}

const bash = (command: string) => ({ command, description: 'run it' });
const write = (rel: string) => ({ file_path: path.join(fx.project, rel), content: 'x\n' });
const edit = (rel: string) => ({ file_path: path.join(fx.project, rel), old_string: '1', new_string: '2' });
const read = (rel: string) => ({ file_path: path.join(fx.project, rel) });

describe("gatehouse hook claude: Claude Code's permission modes", () => {
  it('bypassPermissions in an untrusted project: the trust cap still asks for a command and a write', async () => {
    const [npm, wr, rd] = await Promise.all([
      decide('bypassPermissions', 'Bash', bash('npm test')),
      decide('bypassPermissions', 'Write', write('src/new.ts')),
      decide('bypassPermissions', 'Read', read('README.md')),
    ]);
    expect(npm).toMatchObject({ decision: 'ask', reason: expect.stringMatching(/^Gatehouse \(trust\)/) });
    expect(wr).toMatchObject({ decision: 'ask', reason: expect.stringMatching(/^Gatehouse \(trust\)/) });
    expect(rd.decision).toBe('allow');
  }, 120_000);

  it('in a trusted project each mode decides what nothing earlier decided, and bypass loosens no deny', async () => {
    await new TrustStore({ configDir: fx.configDir, env: fx.env }).set(fx.project, 'directory');
    const cases = await Promise.all([
      // bypassPermissions: deny rules (Claude Code's own file), the hard list and self-protection still deny.
      decide('bypassPermissions', 'Bash', bash('git push origin main')),
      decide('bypassPermissions', 'Bash', bash('sudo rm -rf /')),
      decide('bypassPermissions', 'Write', write('.claude/settings.json')),
      decide('bypassPermissions', 'Bash', bash('npm test')),
      // default and acceptEdits: as Gatehouse's modes of the same name.
      decide('default', 'Bash', bash('npm test')),
      decide('default', 'Edit', edit('src/index.ts')),
      decide('acceptEdits', 'Edit', edit('src/index.ts')),
      decide('acceptEdits', 'Bash', bash('npm test')),
      // plan: read-only.
      decide('plan', 'Write', write('src/new.ts')),
      decide('plan', 'Read', read('README.md')),
      // dontAsk: what would ask is denied; reads stay allowed.
      decide('dontAsk', 'Bash', bash('npm test')),
      decide('dontAsk', 'Read', read('README.md')),
      // A mode Gatehouse does not know: strict, so even a read asks.
      decide('yolo', 'Read', read('README.md')),
      decide('yolo', 'Bash', bash('sudo reboot')),
      // No mode at all (an older Claude Code): the person's settings (here none: default).
      decide(undefined, 'Edit', edit('src/index.ts')),
    ]);
    const [push, sudo, self, npmBypass, npmDefault, editDefault, editAccept, npmAccept] = cases;
    const [planWrite, planRead, npmDontAsk, readDontAsk, unknownRead, unknownSudo, noModeEdit] = cases.slice(8);
    expect(push).toMatchObject({ decision: 'deny', reason: expect.stringContaining('Bash(git push:*)') });
    expect(sudo).toMatchObject({ decision: 'deny', reason: expect.stringMatching(/^Gatehouse \(hard\)/) });
    expect(self?.decision).toBe('deny');
    expect(npmBypass?.decision).toBe('allow');
    expect(npmDefault?.decision).toBe('ask');
    expect(editDefault?.decision).toBe('ask');
    expect(editAccept?.decision).toBe('allow');
    expect(npmAccept?.decision).toBe('ask');
    expect(planWrite).toMatchObject({ decision: 'deny', reason: expect.stringMatching(/^Gatehouse \(agent-mode\)/) });
    expect(planRead?.decision).toBe('allow');
    expect(npmDontAsk).toMatchObject({ decision: 'deny', reason: expect.stringContaining('dontAsk mode asks nobody') });
    expect(readDontAsk?.decision).toBe('allow');
    expect(unknownRead).toMatchObject({ decision: 'ask', reason: expect.stringContaining('"yolo" is unknown') });
    expect(unknownSudo?.decision).toBe('deny');
    expect(noModeEdit?.decision).toBe('ask');
  }, 180_000);
});
