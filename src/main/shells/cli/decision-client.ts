import net from 'node:net';
import {
  HelperMessageSchema,
  MAX_MESSAGE_BYTES,
  readLines,
  type HelperOutput,
  type HelperRequest,
} from './decision-helper-protocol';
import { HELPER_COMMAND, helperSocket, readHelperSecret } from './decision-helper-socket';
import { quietOnClosedPipe } from './stdio';
import { readStdinText } from './stdin-text';

/**
 * The thin client of the decision helper: sends one served command (its argv, working folder, environment and
 * stdin, and the helper's per-start secret, which proves the request is the person's: decision-helper-secret.ts) to
 * the user's helper and hands back what the helper printed. Any failure (no helper, an unsafe folder, a
 * helper that is busy for too long, dies, or answers something malformed) is a `fallback`: the caller then runs the
 * command in-process, so a failure never changes a decision, never loses output and never prints anything extra.
 * A client that found no helper starts one (detached) and does not wait for it.
 */

/** How long a client waits for a busy helper to take its request before running the command itself. */
const START_WAIT_MS = 500;

export interface ClientOptions {
  argv: string[];
  env: NodeJS.ProcessEnv;
  buildId: string;
  /** The built `gatehouse` entry, which the helper runs (`node <cliFile> __decision-helper`). */
  cliFile: string;
  readsStdin: boolean;
}

type ClientResult =
  | { served: true; exitCode: number; output: HelperOutput; helperPid: number }
  | { served: false; reason: string; stdin?: () => Promise<string> };

function stringEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (typeof v === 'string') out[k] = v;
  return out;
}

/** Starts the helper for this build, detached from this process (which does not wait for it); returns its pid. */
function startHelper(cliFile: string, env: NodeJS.ProcessEnv): number | undefined {
  try {
    // Loaded here: a call the helper answers never needs it.
    const { spawn } = process.getBuiltinModule('node:child_process');
    const child = spawn(process.execPath, [cliFile, HELPER_COMMAND], {
      detached: true,
      stdio: 'ignore',
      env,
      cwd: '/',
    });
    child.on('error', () => undefined);
    child.unref();
    return child.pid;
  } catch {
    return undefined; // no helper this time: the next call tries again
  }
}

/** One request to the helper at `socketPath`. */
function converse(socketPath: string, request: HelperRequest): Promise<ClientResult | 'absent'> {
  return new Promise((resolve) => {
    let done = false;
    let helperPid = 0;
    const socket = net.createConnection(socketPath);
    const finish = (result: ClientResult | 'absent'): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const fallback = (reason: string): void => finish({ served: false, reason });
    const timer = setTimeout(
      () => fallback(`the helper did not take the request within ${START_WAIT_MS} ms`),
      START_WAIT_MS,
    );
    socket.on('connect', () => socket.write(JSON.stringify(request) + '\n'));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (helperPid === 0 && (err.code === 'ENOENT' || err.code === 'ECONNREFUSED')) finish('absent');
      else fallback(`socket error: ${err.code ?? err.message}`);
    });
    socket.on('close', () => fallback('the helper closed the connection before answering'));
    readLines(
      socket,
      MAX_MESSAGE_BYTES,
      (line) => {
        let message: unknown;
        try {
          message = JSON.parse(line);
        } catch {
          return fallback('the helper sent something that is not JSON');
        }
        const parsed = HelperMessageSchema.safeParse(message);
        if (!parsed.success) return fallback('the helper sent a message of an unknown shape');
        const m = parsed.data;
        if (m.type === 'start') {
          if (helperPid !== 0) return fallback('the helper started the request twice');
          helperPid = m.pid;
          clearTimeout(timer);
          socket.write(JSON.stringify({ type: 'go' }) + '\n');
        } else if (m.type === 'refused') fallback(`the helper refused: ${m.reason}`);
        else if (helperPid === 0) fallback('the helper answered a request it had not started');
        else finish({ served: true, exitCode: m.exitCode, output: m.output, helperPid });
      },
      () => fallback('the helper sent a message that is too long'),
    );
  });
}

/** Asks the user's decision helper to run `argv`; see the module comment. */
async function askDecisionHelper(options: ClientOptions): Promise<ClientResult> {
  let stdinText: string | undefined;
  let stdin: (() => Promise<string>) | undefined;
  if (options.readsStdin) {
    try {
      stdinText = await readStdinText();
      const text = stdinText;
      stdin = () => Promise.resolve(text);
    } catch (err) {
      return { served: false, reason: `stdin: ${(err as Error).message}`, stdin: () => Promise.reject(err) };
    }
  }
  const fallback = (reason: string): ClientResult => ({ served: false, reason, ...(stdin ? { stdin } : {}) });
  const where = helperSocket(options.env, options.buildId);
  if (!where.ok) return fallback(`no helper: ${where.reason}`);
  let cwd: string;
  try {
    cwd = process.cwd();
  } catch (err) {
    return fallback(`no working folder: ${(err as Error).message}`);
  }
  // No secret to read: no helper runs (it writes its secret before it listens), or none this process may use.
  const secret = readHelperSecret(where.secret);
  const request: HelperRequest = {
    type: 'request',
    secret: secret ?? '',
    argv: options.argv,
    cwd,
    env: stringEnv(options.env),
    ...(stdinText === undefined ? {} : { stdin: stdinText }),
    pid: process.pid,
    umask: process.umask(),
    node: process.version,
  };
  const result = secret === null ? 'absent' : await converse(where.socket, request);
  if (result === 'absent') {
    const pid = startHelper(options.cliFile, options.env);
    const why = secret === null ? ` (there is no secret at ${where.secret})` : '';
    return fallback(`no helper was listening at ${where.socket}${why}: started one (pid ${pid ?? 'none'})`);
  }
  return result.served ? result : fallback(result.reason);
}

/**
 * Runs a served command through the helper: prints exactly what the helper's run printed, in order, and exits with
 * its code; or, when the helper did not answer, calls `inProcess` (with the stdin already read, if any).
 */
export function runThroughHelper(
  options: ClientOptions,
  inProcess: (stdin?: () => Promise<string>) => void,
  debug: boolean,
): void {
  const say = (message: string): void => {
    if (debug) process.stderr.write(`gatehouse: decision helper: ${message}\n`);
  };
  askDecisionHelper(options)
    .catch((err: unknown): ClientResult => ({ served: false, reason: `client error: ${String(err)}` }))
    .then((result) => {
      if (!result.served) {
        say(`running in-process: ${result.reason}`);
        inProcess(result.stdin);
        return;
      }
      say(`answered by the helper (pid ${result.helperPid})`);
      const stdout = quietOnClosedPipe(process.stdout);
      const stderr = quietOnClosedPipe(process.stderr);
      for (const chunk of result.output) (chunk.stream === 'out' ? stdout : stderr).write(chunk.text);
      process.exitCode = result.exitCode;
    });
}
