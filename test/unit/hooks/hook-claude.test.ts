import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hookClaude } from '../../../src/main/shells/cli/hook-claude-command';
import { fromClaudeCall } from '../../../src/main/core/hooks/claude-tools';
import { TrustStore } from '../../../src/main/core/trust/trust-store';
import { makeFixture, type Fixture } from '../permission/fixture';

// `gatehouse hook claude` against Claude Code's documented PreToolUse inputs (hooks reference: common fields
// session_id, transcript_path, cwd, permission_mode, hook_event_name; tool_name and tool_input per tool).

let fx: Fixture;
beforeEach(() => {
  fx = makeFixture();
});
afterEach(() => fx.cleanup());

function sample(toolName: string, toolInput: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    session_id: 'abc123',
    transcript_path: path.join(fx.home, '.claude/projects/x/abc123.jsonl'),
    cwd: fx.project,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: toolName,
    tool_input: toolInput,
    tool_use_id: 'toolu_01ABC123',
    ...extra,
  };
}

async function run(input: unknown): Promise<{ code: number; out: string[] }> {
  const out: string[] = [];
  const io = { out: (l: string) => out.push(l), err: () => undefined, env: fx.env, cwd: fx.project };
  const code = await hookClaude(io, typeof input === 'string' ? input : JSON.stringify(input));
  return { code, out };
}

function decisionOf(out: string[]): { permissionDecision: string; permissionDecisionReason: string } {
  expect(out).toHaveLength(1);
  const json = JSON.parse(out[0]!) as { hookSpecificOutput: Record<string, string> };
  expect(json.hookSpecificOutput.hookEventName).toBe('PreToolUse');
  return json.hookSpecificOutput as { permissionDecision: string; permissionDecisionReason: string };
}

async function trust(): Promise<void> {
  await new TrustStore({ configDir: fx.configDir, env: fx.env }).set(fx.project, 'directory');
}

describe('gatehouse hook claude', () => {
  it("maps Claude Code's tools to Gatehouse's", () => {
    expect(fromClaudeCall('Bash', { command: 'npm test', description: 'Run tests', timeout: 120000 })).toEqual({
      tool: 'run_command',
      input: { command: 'npm test' },
    });
    expect(fromClaudeCall('Write', { file_path: '/p/a.txt', content: 'x' })).toEqual({
      tool: 'write_file',
      input: { path: '/p/a.txt', content: 'x' },
    });
    expect(fromClaudeCall('Edit', { file_path: '/p/a', old_string: 'a', new_string: 'b', replace_all: false })).toEqual(
      {
        tool: 'edit_file',
        input: { path: '/p/a', old_string: 'a', new_string: 'b' },
      },
    );
    expect(fromClaudeCall('Read', { file_path: '/p/a', offset: 1, limit: 10 })).toEqual({
      tool: 'read_file',
      input: { path: '/p/a' },
    });
    expect(fromClaudeCall('Glob', { pattern: '**/*.ts', path: '/p' })?.tool).toBe('find_files');
    expect(fromClaudeCall('Grep', { pattern: 'TODO', path: '/p', glob: '*.ts' })?.tool).toBe('search_code');
    expect(fromClaudeCall('WebFetch', { url: 'https://example.com', prompt: 'x' })).toBeNull();
    expect(fromClaudeCall('mcp__memory__create_entities', {})).toBeNull();
  });

  it('denies what the hard list denies, with the reason', async () => {
    const d = decisionOf((await run(sample('Bash', { command: 'sudo rm -rf /', description: 'x' }))).out);
    expect(d.permissionDecision).toBe('deny');
    expect(d.permissionDecisionReason).toMatch(/^Gatehouse \(hard\)/);
  });

  it('allows a read inside the project and asks for a command in an untrusted one', async () => {
    const read = decisionOf((await run(sample('Read', { file_path: path.join(fx.project, 'README.md') }))).out);
    expect(read.permissionDecision).toBe('allow');
    const npm = decisionOf((await run(sample('Bash', { command: 'npm test' }))).out);
    expect(npm).toMatchObject({ permissionDecision: 'ask' });
    expect(npm.permissionDecisionReason).toContain('trust');
  });

  it("applies Claude Code's own rules files and protects them from the agent", async () => {
    await trust();
    fx.settings('claudeProject', { deny: ['Bash(git push:*)'], allow: ['Bash(npm test)'] });
    expect(decisionOf((await run(sample('Bash', { command: 'git -C . push origin main' }))).out)).toMatchObject({
      permissionDecision: 'deny',
    });
    expect(decisionOf((await run(sample('Bash', { command: 'npm test' }))).out).permissionDecision).toBe('allow');
    const self = decisionOf(
      (await run(sample('Write', { file_path: path.join(fx.project, '.claude/settings.json'), content: '{}' }))).out,
    );
    expect(self.permissionDecision).toBe('deny');
    // Claude Code's mode is the fallback: acceptEdits allows an edit in a trusted project.
    const edit = sample(
      'Edit',
      { file_path: path.join(fx.project, 'src/index.ts'), old_string: '1', new_string: '2' },
      { permission_mode: 'acceptEdits' },
    );
    expect(decisionOf((await run(edit)).out).permissionDecision).toBe('allow');
  });

  it('passes through tools it does not model and other events: no output, exit 0', async () => {
    expect(await run(sample('WebFetch', { url: 'https://example.com', prompt: 'summarise' }))).toEqual({
      code: 0,
      out: [],
    });
    expect(await run({ ...sample('Bash', { command: 'ls' }), hook_event_name: 'PostToolUse' })).toEqual({
      code: 0,
      out: [],
    });
  });

  it('input it cannot read asks, never allows', async () => {
    expect(decisionOf((await run('{not json')).out).permissionDecision).toBe('ask');
    expect(decisionOf((await run({ hook_event_name: 'PreToolUse', tool_name: 'Bash' })).out).permissionDecision).toBe(
      'ask',
    );
    const gone = decisionOf((await run(sample('Bash', { command: 'ls' }, { cwd: path.join(fx.root, 'gone') }))).out);
    expect(gone.permissionDecision).toBe('ask');
    // A Bash call without a command fails the schema: denied with the reason.
    expect(decisionOf((await run(sample('Bash', {}))).out).permissionDecision).toBe('deny');
  });

  it('records its decisions in the audit log under the Claude Code session', async () => {
    await run(sample('Bash', { command: 'sudo reboot' }));
    const audit = fs.readFileSync(path.join(fx.configDir, 'audit.jsonl'), 'utf8');
    expect(audit).toContain('"session":"claude-abc123"');
    expect(audit).toContain('"decision":"deny"');
  });
});
