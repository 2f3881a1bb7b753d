import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolRegistry } from '../../src/worker/tools/tool-set';
import { UNSANDBOXED_HINT } from '../../src/worker/tools/run-command';
import { DO, makeSandbox, type Sandbox } from '../unit/tools/helpers';

/** run_command with real bash in a real pty: exit codes, streaming, timeouts, cancel killing the process group. */
let sb: Sandbox;
beforeAll(() => {
  sb = makeSandbox();
});
afterAll(() => sb.cleanup());

const reg = createToolRegistry({ ripgrepPath: null, killGraceMs: 300 });
const run = (
  command: string,
  extra: { timeout_ms?: number; signal?: AbortSignal; onOutput?: (c: string) => void } = {},
) =>
  reg.execute(
    'run_command',
    { command, ...(extra.timeout_ms === undefined ? {} : { timeout_ms: extra.timeout_ms }) },
    sb.ctx({
      ...(extra.signal ? { signal: extra.signal } : {}),
      ...(extra.onOutput ? { onOutput: extra.onOutput } : {}),
    }),
    DO,
  );

/** Live (non-zombie) processes whose command line contains `marker`. */
function liveProcessesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const state = /^State:\s+(\S)/m.exec(fs.readFileSync(`/proc/${entry}/status`, 'utf8'))?.[1];
      if (cmdline.includes(marker) && state !== 'Z') found.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

describe('run_command', () => {
  it('returns the output and the exit code, in the project root', async () => {
    const ok = await run('pwd; echo out; echo err >&2');
    expect(ok).toMatchObject({ content: `${sb.root}\nout\nerr\n[exit code 0]`, isError: false, exitCode: 0 });
    const failed = await run('echo nope; exit 3');
    expect(failed).toMatchObject({ content: 'nope\n[exit code 3]', isError: false, exitCode: 3 });
    // Nothing printed: nothing for the terminal view either.
    expect(await run('true')).toEqual({ content: '(no output)\n[exit code 0]', isError: false, exitCode: 0 });
  });

  it('really runs bash (quoting, pipes, files in the project)', async () => {
    const res = await run(`printf '%s\\n' "a b" 'c' | wc -l > count.txt && cat count.txt`);
    expect(res.content).toBe('2\n[exit code 0]');
    expect(fs.readFileSync(path.join(sb.root, 'count.txt'), 'utf8').trim()).toBe('2');
  });

  it('streams output as it comes, ANSI kept for the UI and stripped for the model', async () => {
    // The command prints, then waits until the test has seen that output: it can only end if the output was
    // delivered while it was still running (no clock involved).
    const go = path.join(sb.root, `go-${process.pid}`);
    let streamed = '';
    const res = await run(
      `printf '\\033[32mgreen\\033[0m\\n'; while [ ! -e ${go} ]; do sleep 0.02; done; echo second`,
      {
        onOutput: (text) => {
          streamed += text;
          if (streamed.includes('green') && !fs.existsSync(go)) fs.writeFileSync(go, '');
        },
      },
    );
    expect(streamed).toContain('\x1b[32mgreen\x1b[0m');
    expect(streamed).not.toContain('__gatehouse_done_');
    expect(streamed.indexOf('green')).toBeLessThan(streamed.indexOf('second'));
    expect(res.content).toBe('green\nsecond\n[exit code 0]');
    // The card's terminal view gets the same rows with their colour.
    expect(res.terminal).toContain('\x1b[32mgreen');
    // eslint-disable-next-line no-control-regex -- the colour sequences are what is stripped
    expect(res.terminal?.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '')).toBe('green\r\nsecond');
  });

  it('an npm-style spinner reaches the model as its final line, in a few bytes', async () => {
    const frames = 'for i in $(seq 1 400); do printf "\\033[1G\\033[0K%s reify: timing" "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"; done';
    const res = await run(
      `printf '\\033[?25l'; ${frames}; printf '\\033[1G\\033[0Kadded 3 packages in 2s\\n\\033[?25h'`,
    );
    expect(res.content).toBe('added 3 packages in 2s\n[exit code 0]');
    expect(Buffer.byteLength(res.content)).toBeLessThan(2048);
  });

  it('survives a UI stream that throws', async () => {
    const res = await run('echo fine', {
      onOutput: () => {
        throw new Error('ui broke');
      },
    });
    expect(res.content).toBe('fine\n[exit code 0]');
  });

  it('kills the whole process group on timeout and says so', async () => {
    const marker = `gh-timeout-${process.pid}-${Date.now()}`;
    // Without the kill the command would outlive the test's own time limit.
    const res = await run(
      `echo started; sleep 600 & sleep 600; : ${marker}`.replace('sleep 600 &', `bash -c 'sleep 600; : ${marker}' &`),
      { timeout_ms: 400 },
    );
    expect(res).toMatchObject({ content: 'started\n[killed after timeout 400 ms]', isError: true, exitCode: null });
    await expect.poll(() => liveProcessesWith(marker)).toEqual([]);
  });

  it('cancels quickly, killing background children too', async () => {
    const marker = `gh-cancel-${process.pid}-${Date.now()}`;
    const ac = new AbortController();
    // Without the cancel the command would outlive the test's own time limit.
    const pending = run(`bash -c 'sleep 600 & sleep 600; : ${marker}'; : ${marker}`, { signal: ac.signal });
    await expect.poll(() => liveProcessesWith(marker).length).toBeGreaterThanOrEqual(1);
    const children = execFileSync('pgrep', ['-f', marker]).toString().trim().split('\n');
    expect(children.length).toBeGreaterThanOrEqual(1);
    ac.abort();
    const res = await pending;
    expect(res.isError).toBe(true);
    expect(res.exitCode).toBeNull();
    expect(res.content.endsWith('[cancelled]')).toBe(true);
    await expect.poll(() => liveProcessesWith(marker)).toEqual([]);
    // the plain `sleep 600` children (no marker in their own command line) are gone too: their group is empty
  });

  it('SIGKILLs what ignores SIGTERM after the grace period', async () => {
    const marker = `gh-stubborn-${process.pid}-${Date.now()}`;
    const res = await run(`trap '' TERM HUP; echo armed; while :; do sleep 0.05; done; : ${marker}`, {
      timeout_ms: 300,
    });
    expect(res.content).toBe('armed\n[killed after timeout 300 ms]');
    await expect.poll(() => liveProcessesWith(marker)).toEqual([]);
  });

  it('does not leave background jobs running after the command ends', async () => {
    const marker = `gh-bg-${process.pid}-${Date.now()}`;
    const res = await run(`bash -c 'sleep 30; : ${marker}' & echo launched`);
    expect(res.content).toBe('launched\n[exit code 0]');
    await expect.poll(() => liveProcessesWith(marker)).toEqual([]);
  });

  it('cuts large output head and tail, keeping the exit code line', async () => {
    const res = await run('seq 1 100000; exit 4');
    expect(res.exitCode).toBe(4);
    expect(res.content.length).toBeLessThanOrEqual(30_000);
    expect(res.content.startsWith('1\n2\n3\n')).toBe(true);
    expect(res.content).toMatch(/\[\.\.\. [\d,]+ lines omitted \.\.\.\]/);
    expect(res.content.endsWith('99999\n100000\n[exit code 4]')).toBe(true);
  });

  it('binary junk and output without end stay within the cap, head and tail kept', async () => {
    const junk = await run('head -c 3000000 /dev/urandom; echo; echo THE-END');
    expect(junk.content.length).toBeLessThanOrEqual(30_000);
    expect(junk.content.endsWith('THE-END\n[exit code 0]')).toBe(true);
    const endless = await run('echo FIRST; yes', { timeout_ms: 1_500 });
    expect(endless.content.length).toBeLessThanOrEqual(30_000);
    expect(endless.content.startsWith('FIRST\ny\ny\n')).toBe(true);
    expect(endless.content).toMatch(/\n\[\.\.\. [\d,]+ lines omitted \.\.\.\]\ny\n/);
    expect(endless.content.endsWith('[killed after timeout 1500 ms]')).toBe(true);
  });

  it('reports a command killed by a signal', async () => {
    const res = await run('kill -KILL $$'); // the command's shell dies of SIGKILL: 128 + 9
    expect(res).toEqual({ content: '(no output)\n[exit code 137]', isError: false, exitCode: 137 });
  });

  it('gets no stdin (a reader sees end of input instead of hanging until the timeout)', async () => {
    // `read -t` that times out exits with 142, at end of input with 1; a `cat` waiting for input would be killed.
    const res = await run('read -t 5 line; echo "read exited $?"; cat; [ -t 1 ] && echo "stdout is a terminal"', {
      timeout_ms: 8_000,
    });
    expect(res.content).toBe('read exited 1\nstdout is a terminal\n[exit code 0]');
  });

  it('never loses the end of a large output (repeatedly)', async () => {
    for (let i = 0; i < 2; i++) {
      const res = await run('seq 1 100000; printf "no newline at the end"');
      expect(res.content.endsWith('99999\n100000\nno newline at the end\n[exit code 0]')).toBe(true);
    }
  });

  it('runs inside a command wrapper (the sandbox hook): its argv, env and cwd, cleanup, violations', async () => {
    let cleaned = 0;
    const wrapped = createToolRegistry({
      ripgrepPath: null,
      killGraceMs: 300,
      commandWrapper: {
        wrap: async (command) => ({
          file: 'bash',
          args: ['-c', `echo "[wrapped]"; ${command}`],
          env: { PATH: process.env.PATH ?? '/usr/bin:/bin', WRAPPED: 'yes' },
          cwd: sb.outside,
          cleanup: async () => void cleaned++,
        }),
        describeViolation: (output, exitCode) =>
          output.includes('Permission denied') ? `sandbox_violation: blocked (exit ${exitCode})` : null,
      },
    });
    const ok = await wrapped.execute('run_command', { command: 'echo "$WRAPPED $HOME"; pwd' }, sb.ctx(), DO);
    expect(ok).toMatchObject({ content: `[wrapped]\nyes\n${sb.outside}\n[exit code 0]`, isError: false, exitCode: 0 });
    const blocked = await wrapped.execute(
      'run_command',
      { command: 'echo "x: Permission denied" >&2; exit 1' },
      sb.ctx(),
      DO,
    );
    expect(blocked).toMatchObject({
      content: `[wrapped]\nx: Permission denied\n[exit code 1]\nsandbox_violation: blocked (exit 1)\n${UNSANDBOXED_HINT}`,
      isError: true,
      exitCode: 1,
    });
    expect(cleaned).toBe(2);
  });

  it("unsandboxed: true (allowed by main) spawns the wrapper's unsandboxed form, and reports no sandbox violation", async () => {
    const registry = createToolRegistry({
      ripgrepPath: null,
      killGraceMs: 300,
      commandWrapper: {
        wrap: async (command) => ({
          file: 'bash',
          args: ['-c', `echo "[sandboxed]"; ${command}`],
          env: { PATH: process.env.PATH ?? '/bin' },
          cwd: sb.root,
        }),
        wrapUnsandboxed: (command) => ({
          file: 'bash',
          args: ['-c', `echo "[outside]"; ${command}`],
          env: { PATH: process.env.PATH ?? '/bin' },
          cwd: sb.root,
        }),
        describeViolation: () => 'sandbox_violation: should not be asked',
      },
    });
    const outside = await registry.execute('run_command', { command: 'echo hi', unsandboxed: true }, sb.ctx(), DO);
    expect(outside).toMatchObject({ content: '[outside]\nhi\n[exit code 0]', isError: false, exitCode: 0 });
    const inside = await registry.execute('run_command', { command: 'echo hi', unsandboxed: false }, sb.ctx(), DO);
    expect(inside.content).toMatch(/^\[sandboxed\]\nhi\n\[exit code 0\]\nsandbox_violation/);
  });
});
