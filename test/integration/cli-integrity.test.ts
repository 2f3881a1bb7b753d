import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_LINE_CHARS } from '../../src/main/shells/cli/rpc-shell';
import { reply, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import {
  CLI,
  jsonLines,
  RpcClient,
  runGatehouse,
  sentToolResults,
  startSlowRun,
  withModelSandbox,
} from './agent-helpers';
import type { Sandbox } from './agent-helpers';

// The CLI under hostile and careless use (issue 12): rpc framing, closed input, closed output, a dead worker.

let fake: FakeAnthropic;
let box: Sandbox;
const clients = withModelSandbox((f, b) => {
  fake = f;
  box = b;
});

function rpc(...args: string[]): RpcClient {
  const c = new RpcClient(['--project', box.project, ...args], box.env, box.home);
  clients.push(c);
  return c;
}
const ofType = (type: string) => (e: Record<string, unknown>) => e.type === type;
const exited = (c: RpcClient): Promise<number | null> =>
  c.child.exitCode !== null
    ? Promise.resolve(c.child.exitCode)
    : new Promise((r) => c.child.once('exit', (code) => r(code)));

describe('gatehouse rpc framing', () => {
  it('an over-long line is discarded up to its newline and reported once: its tail is never run', async () => {
    fake.enqueue(
      reply(text('I will write.'), toolUse('toolu_w', 'write_file', { path: 'tail.txt', content: 'x' })),
      reply(text('ok')),
    );
    const c = rpc();
    await c.waitFor(ofType('ready'), 0, 90_000);
    c.send({ type: 'prompt', id: 'p1', text: 'write it' });
    const ask = await c.waitFor(ofType('approval_request'));
    // A line of MAX_LINE_CHARS junk whose tail is a valid approval, in pieces; then a good line.
    const tail = JSON.stringify({ type: 'approve', requestId: ask.requestId, decision: 'always', rules: ['Edit(**)'] });
    const junk = 'x'.repeat(MAX_LINE_CHARS + 10);
    for (let i = 0; i < junk.length; i += 1_000_000) c.child.stdin.write(junk.slice(i, i + 1_000_000));
    c.child.stdin.write(`${tail}\n`);
    c.send({ type: 'approve', requestId: ask.requestId, decision: 'deny', note: 'no' });
    const result = await c.waitFor(ofType('result'));
    expect(result).toMatchObject({ promptId: 'p1', status: 'completed' });
    const tooLong = c.events.filter((e) => e.type === 'error' && String(e.message).includes('longer than'));
    expect(tooLong).toHaveLength(1);
    expect(tooLong[0]).toMatchObject({ line: 2, message: expect.stringContaining('nothing of it was run') });
    // The deny on line 3 was the answer; the approval inside the long line was never applied.
    expect(c.events.find(ofType('ack'))).toMatchObject({
      command: 'approve',
      line: 3,
      requestId: ask.requestId,
      message: 'answered deny',
    });
    expect(fs.existsSync(path.join(box.project, 'tail.txt'))).toBe(false);
    expect(fs.existsSync(path.join(box.project, '.gatehouse', 'settings.local.yaml'))).toBe(false);
    expect(sentToolResults(fake.requests[1]!.body)[0]).toMatchObject({ is_error: true });
    expect(await c.close()).toBe(0);
  }, 180_000);

  it('input closed before an approval is asked: the ask is denied "approval required" and the process exits', async () => {
    fake.enqueue(
      {
        kind: 'message',
        content: [text('thinking slowly'), toolUse('toolu_w', 'write_file', { path: 'late.txt', content: 'x' })],
        stopReason: 'tool_use',
        eventDelayMs: 100,
      },
      reply(text('Could not.')),
    );
    const c = rpc();
    await c.waitFor(ofType('ready'), 0, 90_000);
    c.send({ type: 'prompt', id: 'p1', text: 'write late' });
    c.child.stdin.end();
    expect(await exited(c)).toBe(0);
    expect(c.events.find(ofType('approval_request'))).toBeUndefined();
    expect(c.events.find(ofType('result'))).toMatchObject({ promptId: 'p1', status: 'completed' });
    const decided = c.events.filter(
      (e) => e.type === 'agent' && (e.event as { type: string }).type === 'tool_call_decided',
    );
    expect(decided).toEqual([
      expect.objectContaining({
        event: expect.objectContaining({
          id: 'toolu_w',
          allow: false,
          reason: expect.stringMatching(/^approval required \(the client closed its input/),
        }),
      }),
    ]);
    expect(fs.existsSync(path.join(box.project, 'late.txt'))).toBe(false);
  }, 180_000);

  it('every command is answered: cancel with nothing running, approve, unknown request', async () => {
    const c = rpc();
    await c.waitFor(ofType('ready'), 0, 90_000);
    c.send({ type: 'cancel' });
    expect(await c.waitFor(ofType('ack'))).toMatchObject({
      command: 'cancel',
      line: 1,
      message: 'nothing is running: nothing to cancel',
    });
    c.send({ type: 'approve', requestId: 'nope', decision: 'once' });
    expect(await c.waitFor((e) => e.type === 'error' && e.line === 2)).toMatchObject({ code: 'NOT_FOUND' });
    expect(await c.close()).toBe(0);
  }, 180_000);
});

function pipeToHead(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stderr: string; first: string }> {
  // `gatehouse ARGS | head -c 1`: the reader goes away after one byte.
  return new Promise((resolve) => {
    const child = spawn(
      'bash',
      [
        '-c',
        `set -o pipefail; "${process.execPath}" "${CLI}" "$@" 2>"$ERR" | head -c 1; echo " \${PIPESTATUS[0]}"`,
        'gatehouse',
        ...args,
      ],
      {
        env: { ...env, ERR: path.join(box.home, 'stderr.txt') },
        cwd: box.home,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('close', () => {
      const [first, code] = out.trim().split(' ');
      resolve({
        first: first ?? '',
        code: Number(code),
        stderr: fs.readFileSync(path.join(box.home, 'stderr.txt'), 'utf8'),
      });
    });
  });
}

describe('a closed output pipe', () => {
  it('is no crash in any command: no EPIPE stack trace; a run is stopped', async () => {
    for (let i = 0; i < 300; i++) fs.mkdirSync(path.join(box.project, `d${i}`));
    await runGatehouse(['trust', 'set', box.project, '--scope', 'directory'], box.env, box.home);
    const rules = Array.from({ length: 400 }, (_, i) => `    - "Bash(tool-${i}-${'x'.repeat(200)})"`);
    fs.writeFileSync(path.join(box.configDir, 'settings.yaml'), `permissions:\n  allow:\n${rules.join('\n')}\n`);
    fake.enqueue(reply(text('A long answer. '.repeat(20000))));
    const commands = [
      ['--help'],
      ['rules', 'list', '--project', box.project],
      ['rules', 'list', '--project', box.project, '--json'],
      ['trust', 'list'],
      ['trust', 'status', box.project],
      ['sessions', 'list'],
      ['permissions', 'check', '--project', box.project, '--call', '{"tool":"run_command","input":{"command":"ls"}}'],
      ['run', '--project', box.project, '--output', 'json', 'say a lot'],
    ];
    for (const args of commands) {
      const r = await pipeToHead(args, box.env);
      expect(r.stderr, args.join(' ')).not.toMatch(/EPIPE|Unhandled 'error' event|at .*\(node:/);
      // `run` stops its agent as Ctrl-C would (nobody reads it, nobody can answer): exit 130, cancelled.
      expect(r.code, args.join(' ')).toBe(args[0] === 'run' ? 130 : 0);
      expect(r.first.length, args.join(' ')).toBe(1);
    }
  }, 400_000);
});

describe('gatehouse run when the worker dies mid-run', () => {
  it('reports the failure and exits non-zero, never "it is being restarted" with exit 0', async () => {
    const run = startSlowRun(fake, box);
    let killed = false;
    run.child.stdout.on('data', () => {
      const pid = /"workerPid":(\d+)/.exec(run.stdout);
      if (pid && !killed && run.stdout.includes('text_delta')) {
        killed = true;
        process.kill(Number(pid[1]), 'SIGKILL');
      }
    });
    const code = await run.closed;
    expect(killed).toBe(true);
    expect(code).toBe(1);
    const out = run.stdout;
    const err = run.stderr;
    const result = jsonLines(out).find((e) => e.type === 'result');
    expect(result).toMatchObject({ status: 'error', error: { code: 'WORKER_CRASHED' } });
    expect(err).toMatch(/gatehouse run: the worker .*(crashed|exited)/);
    expect(err).toMatch(
      /the run failed after \d+ turn\(s\); what was done is kept: continue with --resume [0-9a-f-]{36}/,
    );
    expect(`${out}${err}`).not.toContain('being restarted');
  }, 180_000);
});
