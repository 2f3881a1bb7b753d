import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import {
  answeredBy,
  comparable,
  fakeHelper,
  gatehouse,
  helperWorld,
  removeCli,
  startHelper,
  stopHelper,
  type Helper,
  type HelperWorld,
} from './decision-helper-support';
import { addHook, script } from '../unit/hooks/hook-fixture';

// The client trusts a helper only in a private folder, and any failure of the helper means running the command
// in-process: the decision is the same, printed once, with nothing extra (but the debug line these tests turn on).

const worlds: HelperWorld[] = [];
const helpers: Helper[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  for (const h of helpers.splice(0)) await stopHelper(h);
  for (const w of worlds.splice(0)) await w.cleanup();
});
afterAll(() => removeCli());

function world(extraEnv: NodeJS.ProcessEnv = {}): HelperWorld {
  const w = helperWorld(extraEnv);
  worlds.push(w);
  return w;
}

const CALL = JSON.stringify({ tool: 'run_command', input: { command: 'git push --force' } });
const args = (w: HelperWorld) => ['permissions', 'check', '--project', w.fx.project, '--call', CALL];

/** The command's output run in-process, for comparison. */
const alone = (w: HelperWorld) => gatehouse({ ...w.env, GATEHOUSE_DECISION_HELPER: '0' }, args(w));

/** A fake helper at the socket this build would use, in a folder made (and then spoiled) by `prepare`. */
async function fakeIn(w: HelperWorld, socketPath = w.socket, reply?: Parameters<typeof fakeHelper>[1]) {
  const fake = await fakeHelper(socketPath, reply);
  closers.push(() => fake.close());
  return fake;
}

// Many real processes per test: slow on a loaded machine.
describe('the decision helper client', { timeout: 120_000 }, () => {
  it.each([
    ['has mode 755', (w: HelperWorld) => fs.chmodSync(w.socketDir, 0o755), /has mode 755, not 700/],
    [
      'belongs to another user',
      (w: HelperWorld) => fs.chownSync(w.socketDir, 12345, 12345),
      /is owned by uid 12345/,
      process.getuid?.() !== 0,
    ],
  ] as const)('never connects when the socket folder %s', async (_name, spoil, reason, skip = false) => {
    if (skip) return; // changing a folder's owner needs root
    const w = world();
    fs.mkdirSync(w.socketDir, { mode: 0o700 });
    const fake = await fakeIn(w);
    spoil(w);
    const run = await gatehouse(w.env, args(w));
    expect(fake.connections()).toBe(0);
    expect(run.err).toMatch(reason);
    expect(comparable(run)).toEqual(comparable(await alone(w)));
  });

  it('never connects through a socket folder that is a symbolic link, even to a private folder', async () => {
    const w = world();
    const real = path.join(w.fx.root, 'elsewhere');
    fs.mkdirSync(real, { mode: 0o700 });
    fs.symlinkSync(real, w.socketDir);
    const fake = await fakeIn(w, path.join(real, path.basename(w.socket)));
    const run = await gatehouse(w.env, args(w));
    expect(fake.connections()).toBe(0);
    expect(run.err).toMatch(/is a symbolic link/);
    expect(comparable(run)).toEqual(comparable(await alone(w)));
  });

  it("never uses another build's helper (it starts its own)", async () => {
    const w = world();
    fs.mkdirSync(w.socketDir, { mode: 0o700 });
    const other = await fakeIn(w, path.join(w.socketDir, '0123456789abcdef.sock'));
    const run = await gatehouse(w.env, args(w));
    expect(other.connections()).toBe(0);
    expect(run.err).toMatch(/no helper was listening at .*: started one/);
    expect(comparable(run)).toEqual(comparable(await alone(w)));
  });

  const START = JSON.stringify({ type: 'start', pid: 4242 }) + '\n';
  it.each([
    ['not JSON', START, 'garbage\n', /not JSON/],
    ['of an unknown shape', START, '{"type":"reply","exitCode":"0","output":[]}\n', /unknown shape/],
    ['a reply before its start', '{"type":"reply","exitCode":0,"output":[]}\n', '', /had not started/],
    ['too long', START, 'x'.repeat(40 * 1024 * 1024), /too long/],
    ['nothing (it hangs up)', START, '', /closed the connection/],
  ])('runs in-process when the helper answers %s', async (_name, first, answer, reason) => {
    const w = world();
    fs.mkdirSync(w.socketDir, { mode: 0o700 });
    const fake = await fakeIn(w, w.socket, (socket) => {
      socket.write(first);
      socket.once('data', () => (answer ? socket.end(answer) : socket.destroy()));
    });
    const run = await gatehouse(w.env, args(w));
    expect(fake.connections()).toBe(1);
    expect(run.err).toMatch(reason);
    expect(comparable(run)).toEqual(comparable(await alone(w)));
  });

  it('runs in-process, printing the decision once, when the helper is killed in the middle of a request', async () => {
    const w = world();
    const helper = await startHelper(w.env);
    helpers.push(helper);
    // A user hook that blocks the first time it runs (in the helper), and passes when the client runs it again.
    const mark = path.join(w.fx.root, 'hook-ran');
    const hook = script(
      w.fx,
      'slow.sh',
      `#!/bin/sh\ncat >/dev/null\n[ -e ${mark} ] && exit 0\necho $$ > ${mark}\nexec sleep 60\n`,
    );
    addHook(w.fx, 'user', 'PreToolUse', hook, { matcher: 'Bash' });
    const running = gatehouse(w.env, args(w));
    await vi.waitFor(() => expect(fs.readFileSync(mark, 'utf8')).toMatch(/^\d+\n$/), { timeout: 20_000, interval: 20 });
    helper.child.kill('SIGKILL');
    const run = await running;
    process.kill(Number(fs.readFileSync(mark, 'utf8')), 'SIGKILL');
    expect(run.err).toMatch(/running in-process: the helper closed the connection before answering/);
    expect(run.out.trim().split('\n')).toHaveLength(1);
    expect(comparable(run)).toEqual(comparable(await alone(w)));
  });

  it('neither uses nor starts a helper with GATEHOUSE_DECISION_HELPER=0', async () => {
    const w = world({ GATEHOUSE_DECISION_HELPER: '0' });
    const run = await gatehouse(w.env, args(w));
    expect(run.err).not.toMatch(/decision helper/);
    expect(fs.existsSync(w.socketDir)).toBe(false);
    expect(JSON.parse(run.out)).toMatchObject({ decision: 'ask' });
  });
});

describe('the decision helper process', { timeout: 120_000 }, () => {
  it('exits once idle for GATEHOUSE_DECISION_HELPER_IDLE_MS, removing its socket', async () => {
    const w = world({ GATEHOUSE_DECISION_HELPER_IDLE_MS: '300' });
    const helper = await startHelper(w.env);
    helpers.push(helper);
    expect(await helper.exited).toBe(0);
    expect(fs.existsSync(w.socket)).toBe(false);
  });

  it('exits when its socket file is removed or replaced', async () => {
    const w = world();
    const first = await startHelper(w.env);
    helpers.push(first);
    fs.rmSync(w.socket);
    expect(await first.exited).toBe(0);
    const second = await startHelper(w.env);
    helpers.push(second);
    const fake = await fakeIn(w, `${w.socket}.other`);
    fs.renameSync(`${w.socket}.other`, w.socket);
    expect(await second.exited).toBe(0);
    expect(fake.connections()).toBe(0);
  });

  it('writes its secret again when it is replaced or removed while the socket is its own, and keeps answering', async () => {
    const w = world();
    const live = await startHelper(w.env);
    helpers.push(live);
    const secretFile = w.socket.replace(/\.sock$/, '.secret');
    for (const spoil of [() => fs.writeFileSync(secretFile, 'a'.repeat(64)), () => fs.rmSync(secretFile)]) {
      spoil();
      await vi.waitFor(() => expect(fs.readFileSync(secretFile, 'utf8')).toMatch(/^(?!a{64})[0-9a-f]{64}\n$/), {
        timeout: 10_000,
        interval: 50,
      });
      expect(fs.statSync(secretFile).mode & 0o777).toBe(0o600);
      expect(answeredBy(await gatehouse(w.env, args(w)))).toBe(live.pid);
    }
  });

  it('does not start when one already answers; replaces the socket of one that died', async () => {
    const w = world();
    const live = await startHelper(w.env);
    helpers.push(live);
    await expect(startHelper(w.env)).rejects.toThrow(/exited \(0\) before listening/);
    expect(answeredBy(await gatehouse(w.env, args(w)))).toBe(live.pid);
    live.child.kill('SIGKILL');
    await live.exited;
    expect(fs.existsSync(w.socket)).toBe(true); // stale: nobody listens
    const run = await gatehouse(w.env, args(w));
    expect(run.err).toMatch(/no helper was listening at .*: started one/);
    const next = await startHelper(w.env).catch(() => null); // the client's helper may have won the race
    if (next) helpers.push(next);
    await vi.waitFor(async () => expect(answeredBy(await gatehouse(w.env, args(w)))).not.toBeNull(), {
      timeout: 30_000,
      interval: 100,
    });
  });
});
