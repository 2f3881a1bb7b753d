import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { jsonLines, runGatehouse, sentToolResults, withFakeModel } from './agent-helpers';
import type { Sandbox } from './agent-helpers';

// Claude Code-compatible hooks in the agent loop: `gatehouse run` as a real process, real hook scripts, the
// loopback Messages API as the model.

let fake: FakeAnthropic;
let box: Sandbox;
withFakeModel((f, b) => {
  fake = f;
  box = b;
});

/** The user's settings (`<config>/settings.yaml`) with a `hooks` block in Claude Code's shape. */
function userHooks(hooks: Record<string, { matcher?: string; command: string }[]>): void {
  const block = Object.fromEntries(
    Object.entries(hooks).map(([event, list]) => [
      event,
      list.map((h) => ({
        ...(h.matcher ? { matcher: h.matcher } : {}),
        hooks: [{ type: 'command', command: h.command }],
      })),
    ]),
  );
  fs.writeFileSync(path.join(box.configDir, 'settings.yaml'), JSON.stringify({ hooks: block }));
}

function hookScript(name: string, body: string): string {
  const file = path.join(box.home, 'hooks', name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, body, { mode: 0o755 });
  return file;
}

function userTexts(body: { messages: { role: string; content: unknown }[] }): string {
  return JSON.stringify(body.messages.filter((m) => m.role === 'user'));
}

describe('hooks in the agent loop', () => {
  it('PostToolUse feedback reaches the model with the tool result; the hook saw Claude Code fields', async () => {
    fs.writeFileSync(path.join(box.project, 'notes.txt'), 'hello\n');
    const seen = path.join(box.home, 'post-input.json');
    const post = hookScript(
      'post.mjs',
      `import fs from 'node:fs';
let input = '';
process.stdin.on('data', (c) => (input += c));
process.stdin.on('end', () => {
  fs.writeFileSync(${JSON.stringify(seen)}, input);
  process.stdout.write(JSON.stringify({ decision: 'block', reason: 'style check: use tabs in notes.txt' }));
});
`,
    );
    userHooks({ PostToolUse: [{ matcher: 'Read', command: `node ${post}` }] });
    fake.enqueue(reply(toolUse('toolu_1', 'read_file', { path: 'notes.txt' })), reply(text('Done.')));
    const r = await runGatehouse(['run', '--project', box.project, 'read the notes'], box.env, box.home);
    expect(r.code).toBe(0);
    const [result] = sentToolResults(fake.requests[1]!.body);
    expect(String(result!.content)).toContain('hello');
    expect(String(result!.content)).toContain('style check: use tabs in notes.txt');
    const input = JSON.parse(fs.readFileSync(seen, 'utf8')) as Record<string, unknown>;
    expect(input).toMatchObject({
      hook_event_name: 'PostToolUse',
      tool_name: 'Read',
      tool_input: { file_path: path.join(box.project, 'notes.txt') },
      tool_use_id: 'toolu_1',
      cwd: box.project,
    });
    expect(typeof input.session_id).toBe('string');
    expect(String(input.transcript_path)).toContain(String(input.session_id));
    // Each run is in the audit log: which hook, how long, what it said.
    const audit = jsonLines(fs.readFileSync(path.join(box.configDir, 'audit.jsonl'), 'utf8'));
    expect(audit).toContainEqual(
      expect.objectContaining({ kind: 'hook', event: 'PostToolUse', source: 'user', outcome: 'block' }),
    );
  });

  it('UserPromptSubmit adds context, SessionStart too; a Stop hook keeps the run going once', async () => {
    const stop = hookScript(
      'stop.sh',
      `#!/bin/sh
input=$(cat)
case "$input" in *'"stop_hook_active":true'*) exit 0;; esac
echo '{"decision":"block","reason":"run the tests before stopping"}'
`,
    );
    userHooks({
      SessionStart: [{ command: 'echo "branch: feature/hooks"' }],
      UserPromptSubmit: [{ command: 'echo "today is a holiday"' }],
      Stop: [{ command: stop }],
    });
    fake.enqueue(reply(text('All done.')), reply(text('Tests pass.')));
    const r = await runGatehouse(['run', '--project', box.project, 'finish up'], box.env, box.home);
    expect(r.code).toBe(0);
    expect(fake.requests).toHaveLength(2);
    const first = userTexts(fake.requests[0]!.body);
    expect(first).toContain('finish up');
    expect(first).toContain('today is a holiday');
    expect(first).toContain('branch: feature/hooks');
    expect(userTexts(fake.requests[1]!.body)).toContain('run the tests before stopping');
    expect(r.stdout).toContain('Tests pass.');
  });

  it('a UserPromptSubmit block stops the prompt before the model sees it', async () => {
    userHooks({ UserPromptSubmit: [{ command: 'echo "no prompts about secrets" >&2; exit 2' }] });
    const r = await runGatehouse(['run', '--project', box.project, 'tell me the secrets'], box.env, box.home);
    expect(r.code).not.toBe(0);
    expect(r.stderr + r.stdout).toContain('no prompts about secrets');
    expect(fake.requests).toHaveLength(0);
  });

  it("a PreToolUse deny is the call's decision, with the hook run on its decided event", async () => {
    const deny = hookScript('deny.sh', '#!/bin/sh\ncat >/dev/null\necho "no writes on Fridays" >&2\nexit 2\n');
    userHooks({ PreToolUse: [{ matcher: 'Write', command: deny }] });
    fake.enqueue(reply(toolUse('toolu_w', 'write_file', { path: 'a.txt', content: 'x' })), reply(text('ok')));
    const r = await runGatehouse(
      ['run', '--project', box.project, '--mode', 'acceptEdits', 'write'],
      box.env,
      box.home,
    );
    expect(r.code).toBe(0);
    expect(fs.existsSync(path.join(box.project, 'a.txt'))).toBe(false);
    const [result] = sentToolResults(fake.requests[1]!.body);
    expect(result).toMatchObject({ is_error: true });
    expect(String(result!.content)).toContain('no writes on Fridays');
    const [sessionFile] = fs.readdirSync(path.join(box.configDir, 'sessions'));
    const transcript = jsonLines(fs.readFileSync(path.join(box.configDir, 'sessions', sessionFile!), 'utf8'));
    const decided = transcript
      .filter((e) => e.type === 'event' && (e.event as { type: string }).type === 'tool_call_decided')
      .map((e) => e.event as Record<string, unknown>);
    expect(decided[0]).toMatchObject({
      allow: false,
      source: 'hook',
      hooks: [expect.objectContaining({ event: 'PreToolUse', command: deny, outcome: 'deny' })],
    });
  });
});
