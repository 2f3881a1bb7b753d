import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { helperFolderName } from '../../../shared/node/user-folders';

/**
 * Where the per-user decision helper listens and what it serves: loaded by the `gatehouse` entry for every command,
 * so it stays small (node builtins only).
 *
 * The helper is a resident `gatehouse` process that runs the per-call commands other agents call as hooks
 * (`permissions check`, `hook claude`) for thin clients, so that such a call costs a small process and a socket
 * round trip instead of loading the engine each time. It keeps nothing between calls that a fresh process would not
 * have: each request runs with the client's environment, working folder and umask, and reads the settings, the trust
 * store and the policy again. See "The decision helper" in docs/cli.md, and docs/architecture.md.
 */

/** The hidden command that runs the helper (`gatehouse __decision-helper`): not in `--help`. */
export const HELPER_COMMAND = '__decision-helper';

/** `0`, `off`, `false` or `no`: every command runs in its own process, no helper is used or started. */
const HELPER_SWITCH_ENV = 'GATEHOUSE_DECISION_HELPER';
/** The helper exits after this many ms without a request (read when it starts). */
export const HELPER_IDLE_ENV = 'GATEHOUSE_DECISION_HELPER_IDLE_MS';
/** `1`: the client says on stderr whether the helper answered, or why the command ran in-process. */
export const HELPER_DEBUG_ENV = 'GATEHOUSE_DECISION_HELPER_DEBUG';

export const DEFAULT_IDLE_MS = 3 * 60 * 1000;
/** The longest socket path Linux and macOS accept (sun_path is 108 and 104 bytes, NUL included). */
const MAX_SOCKET_PATH = process.platform === 'darwin' ? 103 : 107;

export function helperEnabled(env: NodeJS.ProcessEnv): boolean {
  if (process.platform === 'win32') return false;
  const value = (env[HELPER_SWITCH_ENV] ?? '').trim().toLowerCase();
  return !['0', 'off', 'false', 'no'].includes(value);
}

/**
 * The commands the helper serves: the per-call ones other agents run as hooks. `readsStdin`: the command reads its
 * input from stdin (the client reads it whole first and sends it along). Anything else runs in-process.
 */
export function servedByHelper(argv: readonly string[]): { readsStdin: boolean } | null {
  if (argv[0] === 'permissions' && argv[1] === 'check') return { readsStdin: false };
  if (argv.length === 2 && argv[0] === 'hook' && argv[1] === 'claude') return { readsStdin: true };
  return null;
}

/** The user's own runtime folder: $XDG_RUNTIME_DIR when it is an absolute folder this user owns, else the temp dir. */
function helperRuntimeDir(env: NodeJS.ProcessEnv, uid: number): string {
  const xdg = env.XDG_RUNTIME_DIR;
  if (xdg && path.isAbsolute(xdg)) {
    try {
      const st = fs.lstatSync(xdg);
      if (st.isDirectory() && st.uid === uid) return xdg;
    } catch {
      // absent: the temp dir
    }
  }
  return os.tmpdir();
}

/** `<runtime dir>/gatehouse-<uid>`: the folder of this user's helpers (made by helperSocket, not here). */
export function helperFolder(env: NodeJS.ProcessEnv, uid: number): string {
  return path.join(helperRuntimeDir(env, uid), helperFolderName(uid));
}

/**
 * Why `dir` cannot hold the helper's socket, or null when it can: it must be a real folder (not a symlink), owned
 * by `uid`, with mode 0700, so that no one else can put a socket there that this user's client would trust.
 */
export function unsafeFolderReason(dir: string, uid: number): string | null {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(dir);
  } catch (err) {
    return `${dir}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`;
  }
  if (st.isSymbolicLink()) return `${dir} is a symbolic link`;
  if (!st.isDirectory()) return `${dir} is not a folder`;
  if (st.uid !== uid) return `${dir} is owned by uid ${st.uid}, not ${uid}`;
  if ((st.mode & 0o777) !== 0o700) return `${dir} has mode ${(st.mode & 0o777).toString(8)}, not 700`;
  return null;
}

export type HelperSocket =
  | {
      ok: true;
      dir: string;
      socket: string;
      /** The helper's per-start secret (0600), which a client sends with its request: see decision-helper-secret.ts. */
      secret: string;
    }
  | { ok: false; reason: string };

/**
 * `<runtime dir>/gatehouse-<uid>/<build id>.sock` (runtime dir: see shared/node/user-folders.ts), the folder created
 * (0700) when missing and checked every time (a helper is neither reached nor started when it is unsafe). `uid` is
 * injectable for tests.
 */
export function helperSocket(
  env: NodeJS.ProcessEnv,
  buildId: string,
  uid: number | undefined = process.getuid?.(),
): HelperSocket {
  if (uid === undefined) return { ok: false, reason: 'this platform has no user id' };
  const dir = helperFolder(env, uid);
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST')
      return { ok: false, reason: `cannot create ${dir}: ${(err as Error).message}` };
  }
  const unsafe = unsafeFolderReason(dir, uid);
  if (unsafe) return { ok: false, reason: unsafe };
  const socket = path.join(dir, `${buildId}.sock`);
  if (Buffer.byteLength(socket) > MAX_SOCKET_PATH) return { ok: false, reason: `${socket} is too long for a socket` };
  return { ok: true, dir, socket, secret: path.join(dir, `${buildId}.secret`) };
}

/** The helper's secret as its client sends it, or null when there is none to read (no helper runs). */
export function readHelperSecret(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
}
