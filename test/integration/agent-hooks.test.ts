import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTranscript } from '../../src/main/core/session/transcript-reader';
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

/** The session's one transcript, as a resumed session reads it. */
async function storedSession(): Promise<Awaited<ReturnType<typeof readTranscript>>> {
  const [sessionFile] = fs.readdirSync(path.join(box.configDir, 'sessions')).filter((f) => f.endsWith('.jsonl'));
  return readTranscript(path.join(box.configDir, 'sessions', sessionFile!));
}

/** The `hook_runs` events a `--output json` run streamed. */
function streamedHookRuns(stdout: string): Array<Record<string, unknown>> {
  return jsonLines(stdout)
    .filter((e) => e.type === 'agent' && (e.event as { type: string }).type === 'hook_runs')
    .map((e) => e.event as Record<string, unknown>);
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
    const r = await runGatehouse(
      ['run', '--project', box.project, '--output', 'json', 'read the notes'],
      box.env,
      box.home,
    );
    expect(r.code).toBe(0);
    // The run's stream and the transcript both carry the call's PostToolUse run (the tool card's hooks).
    const postRun = {
      type: 'hook_runs',
      event: 'PostToolUse',
      id: 'toolu_1',
      hooks: [
        expect.objectContaining({
          event: 'PostToolUse',
          source: 'user',
          command: `node ${post}`,
          outcome: 'block',
          message: 'style check: use tabs in notes.txt',
        }),
      ],
    };
    expect(streamedHookRuns(r.stdout)).toEqual([expect.objectContaining(postRun)]);
    expect((await storedSession()).hookRuns).toEqual([expect.objectContaining(postRun)]);
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
    const r = await runGatehouse(['run', '--project', box.project, '--output', 'json', 'finish up'], box.env, box.home);
    expect(r.code).toBe(0);
    // Each event's runs are streamed and stored, where they ran in the conversation (a reloaded chat's lines).
    const expected = [
      {
        event: 'SessionStart',
        at: 0,
        hooks: [expect.objectContaining({ outcome: 'none', message: 'branch: feature/hooks' })],
      },
      { event: 'UserPromptSubmit', at: 0, hooks: [expect.objectContaining({ message: 'today is a holiday' })] },
      {
        event: 'Stop',
        at: 1,
        hooks: [expect.objectContaining({ outcome: 'block', message: 'run the tests before stopping' })],
      },
      { event: 'Stop', at: 3, hooks: [expect.objectContaining({ outcome: 'none', command: stop })] },
    ].map((e) => expect.objectContaining({ type: 'hook_runs', ...e }));
    expect(streamedHookRuns(r.stdout)).toEqual(expected);
    const stored = await storedSession();
    expect(stored.hookRuns).toEqual(expected);
    expect(stored.hookRuns.every((h) => h.id === undefined)).toBe(true);
    // `at` names the stored message each line follows: the prompt, then the answers the Stop hooks saw.
    expect(stored.conversation[0]).toMatchObject({ role: 'user' });
    expect(JSON.stringify(stored.conversation[1])).toContain('All done.');
    expect(JSON.stringify(stored.conversation[3])).toContain('Tests pass.');
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
    // The text output names the hook run too.
    expect(r.stdout).toMatch(
      /^\[hook\] UserPromptSubmit echo .* \(user\) -> block in \d+ ms: no prompts about secrets$/m,
    );
    expect(fake.requests).toHaveLength(0);
    expect((await storedSession()).hookRuns).toEqual([
      expect.objectContaining({
        event: 'UserPromptSubmit',
        at: 0,
        hooks: [expect.objectContaining({ outcome: 'block', message: 'no prompts about secrets' })],
      }),
    ]);
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
    // `run`'s text output: the call's line, then the hook that decided it.
    expect(r.stdout).toContain(`[hook] PreToolUse ${deny} (user) -> deny in `);
    expect(r.stdout).toMatch(
      /^\[tool\] write_file a\.txt -> deny \(hook.*\n\[hook\] PreToolUse .* ms: no writes on Fridays$/m,
    );
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
