import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { makeFixture, type Fixture } from '../unit/permission/fixture';
import { privateCli } from '../unit/trust/helpers';

/**
 * Real `gatehouse` processes and real decision helpers in temp folders: each world has its own runtime folder
 * (XDG_RUNTIME_DIR), so its helper is its own; removing the world removes the helper's socket, and the helper exits.
 */

export interface Run {
  code: number | null;
  out: string;
  err: string;
}

export interface HelperWorld {
  fx: Fixture;
  /** XDG_RUNTIME_DIR of this world's processes. */
  runtime: string;
  /** The per-user folder the socket lives in. */
  socketDir: string;
  socket: string;
  env: NodeJS.ProcessEnv;
  cleanup(): Promise<void>;
}

let built: ReturnType<typeof privateCli> | null = null;

/** The private copy of the built CLI the helper tests share (see privateCli). */
export function cli(): string {
  built ??= privateCli();
  return built.cli;
}

export function removeCli(): void {
  built?.cleanup();
  built = null;
}

/** The build id out/main/cli.js was given by scripts/post-build.mjs. */
export function buildIdOf(cliFile: string): string {
  const m = /(?:var|const|let) BUILD_ID = "([0-9a-f]{16})"/.exec(fs.readFileSync(cliFile, 'utf8'));
  if (!m) throw new Error(`${cliFile} has no build id: was it built by npm run build?`);
  return m[1]!;
}

export function helperWorld(extraEnv: NodeJS.ProcessEnv = {}): HelperWorld {
  const fx = makeFixture();
  const runtime = path.join(fx.root, 'run');
  fs.mkdirSync(runtime, { mode: 0o700 });
  const uid = process.getuid!();
  const socketDir = path.join(runtime, `gatehouse-${uid}`);
  const env: NodeJS.ProcessEnv = {
    ...fx.env,
    XDG_RUNTIME_DIR: runtime,
    XDG_CACHE_HOME: process.env.GATEHOUSE_TEST_CODE_CACHE ?? path.join(fx.root, 'cache'),
    GATEHOUSE_DECISION_HELPER_IDLE_MS: '60000',
    GATEHOUSE_DECISION_HELPER_DEBUG: '1',
    ...extraEnv,
  };
  return {
    fx,
    runtime,
    socketDir,
    socket: path.join(socketDir, `${buildIdOf(cli())}.sock`),
    env,
    cleanup: async () => {
      // Removing the socket folder makes a helper a client started exit (within a second).
      fs.rmSync(runtime, { recursive: true, force: true });
      await fx.cleanup();
    },
  };
}

/** Runs `gatehouse args...` as a process, with `stdin` as its input (none: closed). */
export function gatehouse(
  env: NodeJS.ProcessEnv,
  args: string[],
  opts: { cwd?: string; stdin?: string } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli(), ...args], { env, cwd: opts.cwd ?? '/', stdio: 'pipe' });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
    child.stdin.end(opts.stdin ?? '');
  });
}

const DEBUG_LINE = /^gatehouse: decision helper: .*\n/gm;

/** Who answered, from the client's debug line: the helper's pid, or null when it ran in-process. */
export function answeredBy(run: Run): number | null {
  const m = /^gatehouse: decision helper: answered by the helper \(pid (\d+)\)$/m.exec(run.err);
  return m ? Number(m[1]) : null;
}

/** A run without the debug line and with hook durations (which differ from run to run) blanked. */
export function comparable(run: Run): Run {
  return { code: run.code, out: run.out, err: run.err.replace(DEBUG_LINE, '').replace(/\(\d+ ms\)/g, '(N ms)') };
}

export interface Helper {
  child: ChildProcess;
  pid: number;
  exited: Promise<number | null>;
}

/** Starts a helper for `env` as a child of the test and resolves once it listens. */
export function startHelper(env: NodeJS.ProcessEnv): Promise<Helper> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli(), '__decision-helper'], { env, cwd: '/', stdio: 'pipe' });
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.includes('listening ')) resolve({ child, pid: child.pid!, exited });
    });
    let err = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    void exited.then((code) => reject(new Error(`the helper exited (${code}) before listening: ${err}`)));
  });
}

/** Stops a helper the test started (if it still runs) and waits until it is gone. */
export async function stopHelper(helper: Helper): Promise<void> {
  if (helper.child.exitCode === null && helper.child.signalCode === null) helper.child.kill('SIGKILL');
  await helper.exited;
}

/**
 * A socket server at `socketPath` that is not a helper: counts connections and answers with `reply`. It writes a
 * secret beside its socket, as a helper does (a client talks to none without one), and sees what clients send.
 */
export function fakeHelper(
  socketPath: string,
  reply: (socket: net.Socket) => void = () => undefined,
): Promise<{ connections: () => number; close(): Promise<void> }> {
  if (socketPath.endsWith('.sock'))
    fs.writeFileSync(`${socketPath.slice(0, -'.sock'.length)}.secret`, 'f'.repeat(64), { mode: 0o600 });
  let count = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    count++;
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.once('data', () => reply(socket));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () =>
      resolve({
        connections: () => count,
        close: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      }),
    );
  });
}
