import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reply, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { jsonLines, RpcClient, runGatehouse, sentToolResults, withFakeModel } from './agent-helpers';
import type { Sandbox } from './agent-helpers';

// The agent under hostile model output and damaged state (issue 12), through the built CLI as real processes.

let fake: FakeAnthropic;
let box: Sandbox;
withFakeModel((f, b) => {
  fake = f;
  box = b;
});

const auditLines = (): Array<Record<string, unknown>> =>
  fs
    .readFileSync(path.join(box.configDir, 'audit.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('an unknown tool', () => {
  it('is denied without asking anyone, returns to the model as denied, and is in the audit log', async () => {
    fake.enqueue(reply(toolUse('toolu_x', 'delete_everything', { really: true })), reply(text('Fine.')));
    const c = new RpcClient(['--project', box.project], box.env, box.home);
    try {
      await c.waitFor((e) => e.type === 'ready', 0, 90_000);
      c.send({ type: 'prompt', id: 'p1', text: 'go' });
      await c.waitFor((e) => e.type === 'result', 0, 90_000);
      expect(c.events.find((e) => e.type === 'approval_request')).toBeUndefined();
      const decided = c.events.filter(
        (e) => e.type === 'agent' && (e.event as { type: string }).type === 'tool_call_decided',
      );
      expect(decided).toEqual([
        expect.objectContaining({
          event: expect.objectContaining({
            id: 'toolu_x',
            allow: false,
            source: 'unknown',
            asked: expect.objectContaining({ source: 'unknown' }),
          }),
        }),
      ]);
      expect(decided[0]).not.toHaveProperty('event.answer');
      const [result] = sentToolResults(fake.requests[1]!.body);
      expect(result).toMatchObject({ tool_use_id: 'toolu_x', is_error: true });
      expect(String(result!.content)).toMatch(/unknown tool "delete_everything"/);
      expect(
        auditLines()
          .filter((a) => a.tool === 'delete_everything')
          .map((a) => [a.decision, a.source]),
      ).toEqual([
        ['ask', 'unknown'],
        ['deny', 'unknown'],
      ]);
      expect(await c.close()).toBe(0);
    } finally {
      if (c.child.exitCode === null) c.child.kill('SIGKILL');
    }
  }, 180_000);
});

describe('tool input nested absurdly deep', () => {
  it('is a schema deny and the run goes on to its next turn (no stack overflow)', async () => {
    let deep = '"x"';
    for (let i = 0; i < 20_000; i++) deep = `{"a":${deep}}`;
    fake.enqueue(
      {
        kind: 'message',
        content: [{ type: 'tool_use', id: 'toolu_deep', name: 'read_file', rawJson: `{"path":${deep}}` }],
        stopReason: 'tool_use',
      },
      reply(text('Recovered after the deep call.')),
    );
    const r = await runGatehouse(['run', '--output', 'json', '--project', box.project, 'go deep'], box.env, box.home);
    expect(r.stderr).not.toMatch(/Maximum call stack|RangeError/);
    expect(r.code).toBe(0);
    const events = jsonLines(r.stdout);
    const decided = events.find(
      (e) => e.type === 'agent' && (e.event as { type: string }).type === 'tool_call_decided',
    );
    expect(decided).toMatchObject({
      event: {
        id: 'toolu_deep',
        allow: false,
        source: 'schema',
        reason: expect.stringContaining('nested more than 64 levels deep'),
      },
    });
    expect(events.find((e) => e.type === 'result')).toMatchObject({
      status: 'completed',
      finalText: 'Recovered after the deep call.',
      turns: 2,
    });
    expect(sentToolResults(fake.requests[1]!.body)[0]).toMatchObject({ tool_use_id: 'toolu_deep', is_error: true });
  }, 180_000);
});

describe('a transcript whose last line was cut', () => {
  it('resumes: the next entry starts on a fresh line and only the cut line is reported', async () => {
    fake.enqueue(reply(text('First answer.')));
    const first = await runGatehouse(
      ['run', '--output', 'json', '--project', box.project, 'first prompt'],
      box.env,
      box.home,
    );
    expect(first.code, first.stderr).toBe(0);
    const sessionId = String(jsonLines(first.stdout).find((e) => e.type === 'ready')!.sessionId);
    const file = path.join(box.configDir, 'sessions', `${sessionId}.jsonl`);
    // A crash in the middle of a write: half a line, no newline.
    fs.appendFileSync(file, '{"type":"event","at":"2026-01-01T00:00:00Z","runId":"r","event":{"type":"text_de');
    fake.enqueue(reply(text('Second answer.')));
    const second = await runGatehouse(
      ['run', '--output', 'json', '--resume', sessionId, 'second prompt'],
      box.env,
      box.home,
    );
    expect(second.code, second.stderr).toBe(0);
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    const cut = lines.findIndex((l) => l.endsWith('"type":"text_de'));
    expect(cut).toBeGreaterThan(0);
    expect(JSON.parse(lines[cut + 1]!)).toMatchObject({ type: 'prompt', text: 'second prompt' });
    // A third run reads the whole file: exactly one problem, the fragment, and the conversation has both prompts.
    fake.enqueue(reply(text('Third answer.')));
    const third = await runGatehouse(
      ['run', '--output', 'json', '--resume', sessionId, 'third prompt'],
      box.env,
      box.home,
    );
    const ready = jsonLines(third.stdout).find((e) => e.type === 'ready')!;
    expect(ready.problems).toEqual([expect.stringMatching(new RegExp(`^line ${cut + 1}: not JSON`))]);
    const sent = JSON.stringify(fake.requests[fake.requests.length - 1]!.body.messages);
    expect(sent).toContain('first prompt');
    expect(sent).toContain('Second answer.');
  }, 240_000);
});

describe('secrets in tool calls', () => {
  it('never reach the audit log nor an exported transcript (the transcript itself keeps the conversation to resume)', async () => {
    const secrets = {
      mysql: 'mysql -uroot -pS3cr3tPassw0rd shop',
      curl: 'curl -u alice:hunter2xyz https://api.example.com',
      aws: 'AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzK9q2Lx7Rt aws s3 ls',
      stripe: 'stripe refunds create --api-key sk_live_51H8xKzL2eZvKYlo2C8x9QwErTyUiOpAs',
      slack: 'curl -d @msg.json https://hooks.slack.com/services/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',
    };
    const values = [
      'S3cr3tPassw0rd',
      'hunter2xyz',
      'wJalrXUtnFEMI/K7MDENG/bPxRfiCYzK9q2Lx7Rt',
      'sk_live_51H8xKzL2eZvKYlo2C8x9QwErTyUiOpAs',
      'vQ8rLm2NzX5pKqW7yT3sB9dF',
      'correct-horse-battery-staple',
      'AIzaSyD8e7Kx0n2kL9mPq4RsT6uVw1yZ3aB5cDe',
      'pr0d-db-pa55',
    ];
    fake.enqueue(
      reply(
        ...Object.entries(secrets).map(([k, command]) => toolUse(`toolu_${k}`, 'run_command', { command })),
        toolUse('toolu_json', 'write_file', {
          path: 'config/app.json',
          content: '{"password":"correct-horse-battery-staple","apiKey":"AIzaSyD8e7Kx0n2kL9mPq4RsT6uVw1yZ3aB5cDe"}',
        }),
        toolUse('toolu_env', 'write_file', { path: 'config/prod.env', content: 'DB_PASSWORD=pr0d-db-pa55\n' }),
      ),
      reply(text('Done.')),
    );
    const r = await runGatehouse(['run', '--output', 'json', '--project', box.project, 'deploy'], box.env, box.home);
    expect(r.code, r.stderr).toBe(0);
    const audit = fs.readFileSync(path.join(box.configDir, 'audit.jsonl'), 'utf8');
    expect(audit.split('\n').filter(Boolean).length).toBeGreaterThanOrEqual(7);
    for (const v of values) expect(audit, v).not.toContain(v);
    expect(audit).toContain('mysql -uroot -p[REDACTED] shop');
    const sessionId = String(jsonLines(r.stdout).find((e) => e.type === 'ready')!.sessionId);
    const transcript = fs.readFileSync(path.join(box.configDir, 'sessions', `${sessionId}.jsonl`), 'utf8');
    expect(transcript).toContain('S3cr3tPassw0rd');
    const exported = await runGatehouse(['sessions', 'export', sessionId], box.env, box.home);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout.split('\n').filter(Boolean).length).toBe(transcript.split('\n').filter(Boolean).length);
    for (const v of values) expect(exported.stdout, v).not.toContain(v);
    expect(exported.stdout).toContain('chars of secret-file content redacted');
  }, 240_000);
});
