import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RpcEventSchema } from '../../src/shared/rpc-protocol';
import { reply, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { jsonLines, runGatehouse, sentToolResults, startSlowRun, withFakeModel } from './agent-helpers';
import type { Sandbox } from './agent-helpers';

// `gatehouse run` as a real process (the built bundle) against the loopback Messages API.

let fake: FakeAnthropic;
let box: Sandbox;
withFakeModel((f, b) => {
  fake = f;
  box = b;
});

describe('gatehouse run', () => {
  it('text: a read_file call is allowed and the model receives the file content', async () => {
    fs.writeFileSync(path.join(box.project, 'notes.txt'), 'the secret word is pineapple\n');
    fake.enqueue(
      reply(text('Let me look.'), toolUse('toolu_1', 'read_file', { path: 'notes.txt' })),
      reply(text('The word is pineapple.')),
    );
    const r = await runGatehouse(['run', '--project', box.project, 'what is the word?'], box.env, box.home);
    expect(r.stderr).toMatch(/session [0-9a-f-]{36}/);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Let me look.');
    expect(r.stdout).toMatch(/\[tool\] read_file notes\.txt -> allow \(/);
    expect(r.stdout).toContain('The word is pineapple.');
    const [result] = sentToolResults(fake.requests[1]!.body);
    expect(result).toMatchObject({ tool_use_id: 'toolu_1', is_error: false });
    expect(String(result!.content)).toContain('the secret word is pineapple');
    // The key reached the model API from the worker, over the port: the header carries it.
    expect(fake.requests[0]!.headers['x-api-key'] ?? fake.requests[0]!.headers.authorization).toContain(fake.apiKey);
  });

  it('no TTY: a write_file in default mode is denied "approval required" and the file is absent', async () => {
    fake.enqueue(
      reply(toolUse('toolu_w', 'write_file', { path: 'out.txt', content: 'hello' })),
      reply(text('Could not write.')),
    );
    const r = await runGatehouse(['run', '--project', box.project, '--mode', 'default', 'write it'], box.env, box.home);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /\[tool\] write_file out\.txt -> deny \([a-z-]+\): approval required: .* \[asked \([a-z-]+\): .*; nobody answered\]$/m,
    );
    expect(r.stdout.match(/\[tool\] write_file/g)).toHaveLength(1);
    expect(fs.existsSync(path.join(box.project, 'out.txt'))).toBe(false);
    const [result] = sentToolResults(fake.requests[1]!.body);
    expect(result).toMatchObject({ tool_use_id: 'toolu_w', is_error: true });
    expect(String(result!.content)).toContain('approval required');
    // The decision is in the audit log and in the session transcript.
    const audit = fs.readFileSync(path.join(box.configDir, 'audit.jsonl'), 'utf8');
    expect(audit).toContain('approval required');
    const [sessionFile] = fs.readdirSync(path.join(box.configDir, 'sessions'));
    const transcript = fs.readFileSync(path.join(box.configDir, 'sessions', sessionFile!), 'utf8');
    const decided = jsonLines(transcript).filter(
      (e) => e.type === 'event' && (e.event as { type: string }).type === 'tool_call_decided',
    );
    expect(decided).toEqual([
      expect.objectContaining({
        event: expect.objectContaining({ id: 'toolu_w', allow: false, asked: expect.any(Object) }),
      }),
    ]);
    expect(transcript).not.toContain('"type":"decision"');
    expect(transcript).not.toContain(fake.apiKey);
  });

  it('json: prints JSONL events that follow the contract, ending with the result', async () => {
    fake.enqueue(reply(toolUse('toolu_c', 'run_command', { command: 'rm -rf /' })), reply(text('Refused, fine.')));
    const r = await runGatehouse(['run', '--output', 'json', '--project', box.project, 'clean up'], box.env, box.home);
    expect(r.code).toBe(0);
    const events = jsonLines(r.stdout).map((e) => RpcEventSchema.parse(e));
    expect(events[0]!.type).toBe('ready');
    const decided = events.filter((e) => e.type === 'agent' && e.event.type === 'tool_call_decided');
    expect(decided).toEqual([
      expect.objectContaining({ event: expect.objectContaining({ id: 'toolu_c', allow: false, source: 'hard' }) }),
    ]);
    const last = events[events.length - 1]!;
    expect(last).toMatchObject({ type: 'result', status: 'completed', finalText: 'Refused, fine.' });
  });

  it('plan mode: a forged write_file does not run and the model is told it is not allowed', async () => {
    fake.enqueue(
      reply(toolUse('toolu_f', 'write_file', { path: 'forged.txt', content: 'x' })),
      reply(text('Plan: nothing.')),
    );
    const r = await runGatehouse(
      ['run', '--agent-mode', 'plan', '--mode', 'bypassPermissions', '--project', box.project, 'plan it'],
      box.env,
      box.home,
    );
    expect(r.code).toBe(0);
    expect(fs.existsSync(path.join(box.project, 'forged.txt'))).toBe(false);
    // Only read-only tools were offered to the model.
    expect(fake.requests[0]!.body.tools!.map((t) => t.name)).not.toContain('write_file');
    const [result] = sentToolResults(fake.requests[1]!.body);
    expect(result).toMatchObject({ tool_use_id: 'toolu_f', is_error: true });
    expect(String(result!.content)).toMatch(/plan mode/);
    // The seed's test: the conversation names the refusal tool_not_allowed, as the worker's own gate does.
    expect(String(result!.content)).toContain('tool_not_allowed');
  });

  it('resume: a second run continues the transcript of the first', async () => {
    fake.enqueue(reply(text('First answer.')));
    const first = await runGatehouse(
      ['run', '--output', 'json', '--project', box.project, 'first prompt'],
      box.env,
      box.home,
    );
    const sessionId = String(jsonLines(first.stdout)[0]!.sessionId);
    fake.enqueue(reply(text('Second answer.')));
    const second = await runGatehouse(['run', '--resume', sessionId, 'second prompt'], box.env, box.home);
    expect(second.code).toBe(0);
    const sent = JSON.stringify(fake.requests[1]!.body.messages);
    expect(sent).toContain('first prompt');
    expect(sent).toContain('First answer.');
    expect(sent).toContain('second prompt');
  });

  it('Ctrl-C (SIGINT to the whole process group, as a terminal sends it) cancels the run; the worker lives on', async () => {
    // Its own process group, as a terminal's foreground job: the worker (a child of `gatehouse run`) is in it too.
    const run = startSlowRun(fake, box, { detached: true });
    await new Promise<void>((resolve) =>
      run.child.stdout.on('data', () => {
        if (run.stdout.includes('"text_delta"')) resolve();
      }),
    );
    process.kill(-run.child.pid!, 'SIGINT');
    expect(await run.closed, run.stderr).toBe(130); // a cancelled run's exit code
    expect(jsonLines(run.stdout).at(-1)).toMatchObject({ type: 'result', status: 'cancelled' });
    expect(run.stderr).not.toMatch(/worker (exited|crashed)|SIGINT/);
  });

  it('a missing key is a clear error, exit 1', async () => {
    const env = { ...box.env };
    delete env.ANTHROPIC_API_KEY;
    const r = await runGatehouse(['run', '--project', box.project, 'hi'], env, box.home);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('ANTHROPIC_API_KEY');
    expect(fake.requests).toHaveLength(0);
  });

  it('bad arguments exit 2 with the usage', async () => {
    const r = await runGatehouse(['run', '--output', 'xml', 'hi'], box.env, box.home);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--output must be text or json');
  });
});
