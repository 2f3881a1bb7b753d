import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reply, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { runGatehouse, sentToolResults, withTrustedProject } from './agent-helpers';
import type { Sandbox } from './agent-helpers';
import { createSession } from '../../src/main/shells/sdk';
import type { ApprovalDecision, ApprovalRequest } from '../../src/main/shells/sdk';
import { findOnPath } from '../../src/sandbox/find-binary';

// run_command through the whole path (`gatehouse run` process -> main -> worker -> bubblewrap) with the real
// permission engine in bypassPermissions mode: the engine lets these commands through, only the OS stops them.

const PYTHON = fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const bwrap = process.platform === 'linux' ? await findOnPath('bwrap') : null;
const netTools = (await findOnPath('socat')) !== null && (await findOnPath('curl')) !== null;
const why = bwrap === null ? 'bubblewrap (bwrap) is not installed: the sandbox cannot be tested here' : '';
if (why) console.warn(`agent-sandbox tests skipped: ${why}`);

let fake: FakeAnthropic;
let box: Sandbox;
let outside: string;
// A trusted project: the engine's own checks let the commands through, so what stops them is the OS. `outside` is
// outside the project and outside the private /tmp of the sandbox: a real, writable folder of this machine.
withTrustedProject('gatehouse-agent-sandbox-', (f, b, o) => {
  fake = f;
  box = b;
  outside = o;
});

/** One `gatehouse run` where the model runs `command` once; returns the tool result it received and the output. */
async function runCommandOnce(command: string, extra: { mode?: string; env?: NodeJS.ProcessEnv } = {}) {
  fake.enqueue(reply(toolUse('toolu_s', 'run_command', { command })), reply(text('Done.')));
  const args = ['run', '--project', box.project, '--mode', extra.mode ?? 'bypassPermissions', 'do it'];
  const r = await runGatehouse(args, { ...box.env, ...extra.env }, box.home);
  expect(r.code, r.stderr).toBe(0);
  expect(fake.requests.length, `the model got no tool result: ${r.stdout}\n${r.stderr}`).toBeGreaterThanOrEqual(2);
  const [result] = sentToolResults(fake.requests[1]!.body);
  expect(result).toBeDefined();
  return { result: result!, content: String(result!.content), stdout: r.stdout, stderr: r.stderr };
}

/** The same through the SDK, with a person (`approve`) answering the asks. */
async function viaSdk(command: string, approve: (r: ApprovalRequest) => ApprovalDecision, env: NodeJS.ProcessEnv = {}) {
  fake.enqueue(reply(toolUse('toolu_p', 'run_command', { command })), reply(text('Done.')));
  const before = fake.requests.length;
  const session = await createSession({
    project: box.project,
    configDir: box.configDir,
    env: { ...box.env, ...env },
    mode: 'bypassPermissions',
    approve,
  });
  try {
    const result = await session.prompt('do it');
    expect(result.status).toBe('completed');
  } finally {
    await session.close();
  }
  const [toolResult] = sentToolResults(fake.requests[before + 1]!.body);
  return { result: toolResult!, content: String(toolResult!.content) };
}

const pyWrite = (file: string): string => `${PYTHON} -c "open('${file}','w').write('1')"`;

function writeUserSettings(yaml: string): void {
  fs.writeFileSync(path.join(box.configDir, 'settings.yaml'), yaml);
}

describe.skipIf(bwrap === null)('run_command in the OS sandbox (real bubblewrap, through gatehouse run)', () => {
  it('a write outside the project that the engine allows is stopped by the OS, and the model is told why', async () => {
    const target = path.join(outside, 'escaped.txt');
    const { result, content, stdout, stderr } = await runCommandOnce(pyWrite(target));
    expect(stdout).toMatch(/\[tool\] run_command .* -> allow/);
    expect(stderr).not.toContain('warning');
    expect(fs.existsSync(target)).toBe(false);
    expect(result.is_error).toBe(true);
    expect(content).toContain('blocked by sandbox');
    expect(content).toContain(target);
  });

  it('~/.ssh is unreadable from a command (HOME points at a temp home)', async () => {
    fs.mkdirSync(path.join(box.home, '.ssh'));
    fs.writeFileSync(path.join(box.home, '.ssh', 'id_rsa'), 'PRIVATE-KEY-MATERIAL-42\n');
    const { content } = await runCommandOnce(
      `${PYTHON} -c "import os; print(open(os.path.expanduser('~/.ssh/id_rsa')).read())"`,
    );
    expect(content).not.toContain('PRIVATE-KEY-MATERIAL-42');
    expect(content).toMatch(/\[exit code [1-9]/);
  });

  it("the command's environment lacks the model key", async () => {
    const { content } = await runCommandOnce('env; echo END-OF-ENV');
    expect(content).toContain('END-OF-ENV');
    expect(content).toContain('PATH=');
    expect(content).not.toContain('ANTHROPIC_API_KEY');
    expect(content).not.toContain(fake.apiKey);
  });

  it('a write inside the project works', async () => {
    const { result } = await runCommandOnce(pyWrite('inside.txt'));
    expect(result.is_error).toBe(false);
    expect(fs.readFileSync(path.join(box.project, 'inside.txt'), 'utf8')).toBe('1');
  });

  it('the project cannot turn its own sandbox off, even when trusted', async () => {
    fs.mkdirSync(path.join(box.project, '.gatehouse'));
    for (const name of ['settings.yaml', 'settings.local.yaml']) {
      fs.writeFileSync(path.join(box.project, '.gatehouse', name), 'sandbox:\n  enabled: false\n');
    }
    const target = path.join(outside, 'escaped.txt');
    const { content } = await runCommandOnce(pyWrite(target));
    expect(fs.existsSync(target)).toBe(false);
    expect(content).toContain('blocked by sandbox');
  });

  it('sandbox.enabled: false in the user settings: the same write outside succeeds (the user chose it)', async () => {
    writeUserSettings('sandbox:\n  enabled: false\n');
    const target = path.join(outside, 'allowed.txt');
    const { result, content } = await runCommandOnce(`${pyWrite(target)}; env`);
    expect(result.is_error).toBe(false);
    expect(fs.readFileSync(target, 'utf8')).toBe('1');
    // Unsandboxed, the environment is still scrubbed.
    expect(content).not.toContain(fake.apiKey);
  });

  it('broken user settings keep the sandbox on (fail safe)', async () => {
    writeUserSettings('sandbox:\n  enabled: [not a boolean\n');
    const target = path.join(outside, 'escaped.txt');
    // The file never parsed, so its deny rules are unknown: nothing runs without a person (fail closed) ...
    const { content } = await runCommandOnce(pyWrite(target));
    expect(fs.existsSync(target)).toBe(false);
    expect(content).toMatch(/approval required: .*settings\.yaml cannot be read .*its deny and ask rules are unknown/);
    // ... and what a person allows still runs inside the sandbox, which stays on.
    const asked: ApprovalRequest[] = [];
    const approved = await viaSdk(pyWrite(target), (r) => (asked.push(r), 'once'));
    expect(asked).toHaveLength(1);
    expect(fs.existsSync(target)).toBe(false);
    expect(approved.content).toContain('blocked by sandbox');
  });
});

describe('run_command without a working sandbox (GATEHOUSE_BWRAP points at a missing binary)', () => {
  const missing = { GATEHOUSE_BWRAP: '/nonexistent/bwrap' };

  it('a command bypassPermissions would allow asks instead; no TTY: denied "approval required" with the reason', async () => {
    const marker = path.join(outside, 'ran.txt');
    const { result, content, stdout, stderr } = await runCommandOnce(`ls; ${pyWrite(marker)}`, { env: missing });
    expect(stderr).toContain(
      'gatehouse run: warning: the OS sandbox is unavailable (bubblewrap was not found at /nonexistent/bwrap)',
    );
    expect(stdout).toMatch(/\[tool\] run_command .* -> deny/);
    expect(result.is_error).toBe(true);
    expect(content).toContain('approval required');
    expect(content).toContain(
      'the OS sandbox is unavailable (bubblewrap was not found at /nonexistent/bwrap): every command needs approval',
    );
    expect(fs.existsSync(marker)).toBe(false);
    const audit = fs.readFileSync(path.join(box.configDir, 'audit.jsonl'), 'utf8');
    expect(audit).toContain('the OS sandbox is unavailable');
  });

  it('a read-only command the default mode allows asks too', async () => {
    fs.writeFileSync(path.join(box.project, 'visible.txt'), 'x');
    const { content } = await runCommandOnce('ls', { env: missing, mode: 'default' });
    expect(content).toContain('approval required');
    expect(content).not.toContain('visible.txt');
  });

  it('a person can still approve one command (it runs), or deny it (it does not)', async () => {
    const marker = path.join(outside, 'ran.txt');
    const asked: ApprovalRequest[] = [];
    const denied = await viaSdk(pyWrite(marker), (r) => (asked.push(r), 'deny'), missing);
    expect(denied.result.is_error).toBe(true);
    expect(fs.existsSync(marker)).toBe(false);
    expect(asked[0]!.reason).toContain('the OS sandbox is unavailable');
    const approved = await viaSdk(pyWrite(marker), () => 'once', missing);
    expect(approved.result.is_error).toBe(false);
    expect(fs.existsSync(marker)).toBe(true);
  });

  it('other tools are not affected (read_file still allowed)', async () => {
    fs.writeFileSync(path.join(box.project, 'notes.txt'), 'pineapple\n');
    fake.enqueue(reply(toolUse('toolu_r', 'read_file', { path: 'notes.txt' })), reply(text('Done.')));
    const r = await runGatehouse(['run', '--project', box.project, 'read it'], { ...box.env, ...missing }, box.home);
    expect(r.code).toBe(0);
    const [result] = sentToolResults(fake.requests[1]!.body);
    expect(String(result!.content)).toContain('pineapple');
  });

  it('with the sandbox turned off by the user, a missing bwrap does not make commands ask', async () => {
    writeUserSettings('sandbox:\n  enabled: false\n');
    const marker = path.join(outside, 'ran.txt');
    const { result, stderr } = await runCommandOnce(pyWrite(marker), { env: missing });
    expect(stderr).toContain('the OS sandbox is turned off in your user settings');
    expect(result.is_error).toBe(false);
    expect(fs.existsSync(marker)).toBe(true);
  });
});

describe.skipIf(bwrap === null || !netTools)('the network of run_command (allowedDomains from the settings)', () => {
  let server: http.Server;
  let port = 0;
  let hits = 0;
  beforeEach(async () => {
    hits = 0;
    server = http.createServer((_req, res) => {
      hits++;
      res.end('hello-from-loopback');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterEach(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const fetch = () => `curl -sS -m 5 http://127.0.0.1:${port}/`;

  it('no allowed domain: a loopback server is unreachable', async () => {
    const { content } = await runCommandOnce(fetch());
    expect(content).not.toContain('hello-from-loopback');
    expect(hits).toBe(0);
  });

  it('a domain in the user settings is reachable through the proxy', async () => {
    writeUserSettings(`sandbox:\n  network:\n    allowedDomains: ["127.0.0.1:${port}"]\n`);
    const { content } = await runCommandOnce(fetch());
    expect(content).toContain('hello-from-loopback');
  });

  it("a project's domain counts only while the project is trusted", async () => {
    fs.mkdirSync(path.join(box.project, '.gatehouse'));
    fs.writeFileSync(
      path.join(box.project, '.gatehouse', 'settings.yaml'),
      `sandbox:\n  network:\n    allowedDomains: ["127.0.0.1:${port}"]\n`,
    );
    const trusted = await runCommandOnce(fetch());
    expect(trusted.content).toContain('hello-from-loopback');
    const revoked = await runGatehouse(['trust', 'revoke', box.project], box.env, box.home);
    expect(revoked.code, revoked.stderr).toBe(0);
    // Untrusted, the engine asks about every command: a person approves it, and then only the OS stands in the way.
    hits = 0;
    const asked: string[] = [];
    const { content } = await viaSdk(fetch(), (r) => (asked.push(r.reason), 'once'));
    expect(asked).toHaveLength(1);
    expect(content).not.toContain('hello-from-loopback');
    expect(hits).toBe(0);
  });
});
