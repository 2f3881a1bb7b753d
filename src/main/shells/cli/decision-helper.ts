import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { userCacheDir } from '../../../shared/node/user-folders';
import { initShellParser } from '../../core/shell-analysis/parse/parser';
import { enableCodeCache } from '../../../shared/node/code-cache';
import { findCommand } from './commands';
import { runDecisionRequest } from './decision-request';
import {
  ClientGoSchema,
  HelperRequestSchema,
  MAX_MESSAGE_BYTES,
  readLines,
  type HelperMessage,
  type HelperRequest,
} from './decision-helper-protocol';
import { secretMatches, secretOf, writeHelperSecret } from './decision-helper-secret';
import { DEFAULT_IDLE_MS, HELPER_IDLE_ENV, helperSocket, type HelperSocket } from './decision-helper-socket';

/**
 * The per-user decision helper (`gatehouse __decision-helper`, started detached by a client that found none):
 * listens on `<runtime dir>/gatehouse-<uid>/<build id>.sock` and runs the requests of its clients one at a time
 * (see decision-request.ts for how each runs as a fresh process would), and only those that carry the secret it wrote
 * when it started (`<build id>.secret` beside the socket: decision-helper-secret.ts; written again if it goes while
 * the socket is still this helper's). It exits when it has been idle for GATEHOUSE_DECISION_HELPER_IDLE_MS (default 3
 * minutes), when its socket file is removed or replaced, and when its own `gatehouse` files change (a rebuilt or
 * upgraded CLI has another build id, and so another helper).
 */

const WATCH_MS = 1000;
/** A client sends `go` as soon as it reads `start`; one that does not within this time is dropped. */
const GO_WAIT_MS = 5000;

interface Job {
  socket: net.Socket;
  request: HelperRequest;
  /** Resolves true on the client's `go`, false when it went away. */
  go: Promise<boolean>;
}

export interface HelperOptions {
  buildId: string;
  /** This build's `gatehouse` entry: the helper exits when it changes. */
  cliFile: string;
}

function fileKey(file: string): string | null {
  try {
    const st = fs.statSync(file);
    return `${st.dev}:${st.ino}:${st.size}:${st.mtimeMs}`;
  } catch {
    return null;
  }
}

function send(socket: net.Socket, message: HelperMessage, end = false): void {
  if (socket.destroyed) return;
  const line = JSON.stringify(message) + '\n';
  if (end) socket.end(line);
  else socket.write(line);
}

/** Is a helper already answering at `socketPath`? */
function listening(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createConnection(socketPath);
    probe.on('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.on('error', () => resolve(false));
  });
}

/**
 * Listens at `socket`: on a temporary name first, then renamed over the final one (atomic), so a stale socket file
 * left by a helper that died is replaced without a window in which a client finds none, and two helpers started
 * at once end with one (the one whose name was replaced sees it and exits).
 */
function listen(server: net.Server, where: Extract<HelperSocket, { ok: true }>): Promise<string> {
  const temp = `${where.socket}.${process.pid}.tmp`;
  fs.rmSync(temp, { force: true });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(temp, () => {
      server.removeListener('error', reject);
      try {
        fs.renameSync(temp, where.socket);
        resolve(fileKey(where.socket) ?? '');
      } catch (err) {
        reject(err as Error);
      }
    });
  });
}

/**
 * Loads and runs once what every request needs (the served commands' code, the bash grammar, the engine's schemas),
 * on a throw-away project and config folder, so that the first client is answered as fast as the next ones.
 */
async function warmUp(ownEnv: Record<string, string | undefined>): Promise<void> {
  await Promise.all([findCommand('permissions')?.load(), findCommand('hook')?.load(), initShellParser()]);
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-helper-warm-up-'));
  try {
    const env = { PATH: ownEnv.PATH ?? '/usr/bin:/bin', HOME: root, GATEHOUSE_HOME: path.join(root, 'config') };
    const base = {
      type: 'request',
      secret: '',
      cwd: root,
      env,
      pid: process.pid,
      umask: 0o077,
      node: process.version,
    } as const;
    const call = JSON.stringify({ tool: 'run_command', input: { command: 'ls -la | grep x > out.txt && git status' } });
    await runDecisionRequest({ ...base, argv: ['permissions', 'check', '--no-hooks', '--call', call] }, ownEnv);
    const stdin = JSON.stringify({
      cwd: root,
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'echo hi' },
    });
    await runDecisionRequest({ ...base, argv: ['hook', 'claude'], stdin }, ownEnv);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

export async function runDecisionHelper(options: HelperOptions): Promise<void> {
  const idleMs = Number(process.env[HELPER_IDLE_ENV]) > 0 ? Number(process.env[HELPER_IDLE_ENV]) : DEFAULT_IDLE_MS;
  const where = helperSocket(process.env, options.buildId);
  if (!where.ok || (await listening(where.socket))) return;
  const cliKey = fileKey(options.cliFile);
  // Liftoff only, as in a one-shot process: the optimising tier would compile the bash grammar's big functions on
  // background threads, competing with the clients it serves for far more CPU than it saves them.
  v8.setFlagsFromString('--liftoff-only');
  if (process.env.GATEHOUSE_CODE_CACHE !== '0')
    enableCodeCache({
      chunkDir: path.join(path.dirname(options.cliFile), 'cli-chunks'),
      cacheDir: userCacheDir(process.env),
      variant: 'decision-helper',
    });
  // The helper's own environment, put back after each request (which runs with its client's).
  const ownEnv = { ...process.env };
  await warmUp(ownEnv);

  const queue: Job[] = [];
  let busy = false;
  let stopping = false;
  let idleTimer: NodeJS.Timeout | undefined;
  let socketKey = '';
  let secret = '';
  let secretKey: string | null = null;

  const server = net.createServer((socket) => accept(socket));
  /** True when this helper should no longer answer: its socket is gone or replaced, or its code changed. */
  const stale = (): boolean => fileKey(where.socket) !== socketKey || fileKey(options.cliFile) !== cliKey;
  const watch = setInterval(() => {
    if (socketKey === '') return;
    if (stale()) stop();
    // Its socket but another's secret (two helpers that started at once, the other now exiting) or none: the socket
    // decides who answers, and the secret beside it must be this helper's, or no client could be served.
    else if (fileKey(where.secret) !== secretKey) {
      try {
        secret = writeHelperSecret(where.secret);
        secretKey = fileKey(where.secret);
      } catch {
        stop();
      }
    }
  }, WATCH_MS);

  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    clearInterval(watch);
    clearTimeout(idleTimer);
    server.close();
    for (const job of queue.splice(0)) send(job.socket, { type: 'refused', reason: 'the helper is exiting' }, true);
    if (!busy) exit();
  };
  const exit = (): void => {
    // Its own files only: a newer helper may have replaced them.
    if (fileKey(where.socket) === socketKey) fs.rmSync(where.socket, { force: true });
    if (secretKey !== null && fileKey(where.secret) === secretKey) fs.rmSync(where.secret, { force: true });
    process.exit(0);
  };
  const armIdle = (): void => {
    clearTimeout(idleTimer);
    idleTimer = setTimeout(stop, idleMs);
  };

  function accept(socket: net.Socket): void {
    socket.on('error', () => undefined);
    let resolveGo: (go: boolean) => void = () => undefined;
    const go = new Promise<boolean>((resolve) => (resolveGo = resolve));
    socket.on('close', () => resolveGo(false));
    let request: HelperRequest | null = null;
    readLines(
      socket,
      MAX_MESSAGE_BYTES,
      (line) => {
        let json: unknown;
        try {
          json = JSON.parse(line);
        } catch {
          json = null;
        }
        if (request === null) {
          // Before anything else, and before it can wait in the queue: a peer without the secret gets nothing run.
          if (!secretMatches(secret, secretOf(json)))
            return send(socket, { type: 'refused', reason: "the request does not carry this helper's secret" }, true);
          const parsed = HelperRequestSchema.safeParse(json);
          if (!parsed.success) return send(socket, { type: 'refused', reason: 'malformed request' }, true);
          request = parsed.data;
          queue.push({ socket, request, go });
          void pump();
        } else if (ClientGoSchema.safeParse(json).success) resolveGo(true);
        else socket.destroy();
      },
      () => socket.destroy(),
    );
  }

  async function pump(): Promise<void> {
    if (busy || stopping) return;
    busy = true;
    clearTimeout(idleTimer);
    for (let job = queue.shift(); job !== undefined && !stopping; job = queue.shift()) {
      if (job.socket.destroyed) continue;
      if (stale()) {
        send(job.socket, { type: 'refused', reason: 'this helper is out of date' }, true);
        stop();
        break;
      }
      send(job.socket, { type: 'start', pid: process.pid });
      const goTimer = setTimeout(() => job.socket.destroy(), GO_WAIT_MS);
      const go = await job.go;
      clearTimeout(goTimer);
      if (!go) continue;
      let reply = await runDecisionRequest(job.request, ownEnv);
      // Its files changed while it ran (a lazily loaded part may have been missing): the client decides itself.
      if (stale()) reply = { type: 'refused', reason: 'this helper went out of date during the request' };
      send(job.socket, reply, true);
    }
    busy = false;
    if (stopping) exit();
    else armIdle();
  }

  // Another helper started meanwhile and answers already (its warm-up was shorter): this one is not needed, and
  // taking its place would refuse the clients that read its secret a moment before.
  if (await listening(where.socket)) process.exit(0);
  try {
    // The secret first: once the socket is there, a client finds the secret that goes with it.
    secret = writeHelperSecret(where.secret);
    secretKey = fileKey(where.secret);
    socketKey = await listen(server, where);
  } catch {
    if (secretKey !== null && fileKey(where.secret) === secretKey) fs.rmSync(where.secret, { force: true });
    process.exit(0); // the folder went away or cannot be written: nothing to serve
  }
  armIdle();
  // For whoever started it with a pipe (tests); a client starts it with no stdio.
  process.stdout.write(`listening ${where.socket}\n`);
}
