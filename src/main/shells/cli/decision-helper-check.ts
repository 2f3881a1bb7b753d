import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { helperEnabled, helperFolder, unsafeFolderReason } from './decision-helper-socket';

/**
 * For `gatehouse doctor`: whether this user's decision helpers refuse a client that does not hold their secret
 * (decision-helper-secret.ts). Each helper running is asked, with a request that carries no secret and names no
 * command: one that checks refuses it at once for want of the secret; an older build refuses it for its shape (its
 * folder is the only lock it has). Nothing is run either way.
 */

const ASK_TIMEOUT_MS = 1000;
/** The words of decision-helper.ts's refusal. */
const SECRET_REFUSAL = "the request does not carry this helper's secret";

interface RunningHelper {
  socket: string;
  /** True: it refused a request without its secret; false: it does not check one; null: it did not answer. */
  authenticates: boolean | null;
  detail: string;
}

export interface HelperCheck {
  enabled: boolean;
  folder: string | null;
  /** Why the folder cannot be used (no helper is then used or started), or null. */
  folderProblem: string | null;
  running: RunningHelper[];
}

function ask(socketPath: string): Promise<RunningHelper> {
  return new Promise((resolve) => {
    const socket = net.createConnection(socketPath);
    let buffer = '';
    const done = (authenticates: boolean | null, detail: string): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ socket: socketPath, authenticates, detail });
    };
    const timer = setTimeout(() => done(null, 'did not answer within a second'), ASK_TIMEOUT_MS);
    socket.on('connect', () => socket.write(`${JSON.stringify({ type: 'request' })}\n`));
    socket.on('error', (err: NodeJS.ErrnoException) => done(null, `not running (${err.code ?? err.message})`));
    socket.on('data', (data) => {
      buffer += data.toString('utf8');
      const nl = buffer.indexOf('\n');
      if (nl === -1) return;
      let message: { type?: unknown; reason?: unknown } = {};
      try {
        message = JSON.parse(buffer.slice(0, nl)) as typeof message;
      } catch {
        // not a helper's answer
      }
      if (message.type === 'refused' && message.reason === SECRET_REFUSAL)
        done(true, 'refuses a request without its secret');
      else if (message.type === 'refused' || message.type === 'start')
        done(false, 'does not check a secret (an older build: it exits after 3 minutes without a call)');
      else done(null, 'answered something that is not a helper’s answer');
    });
  });
}

export async function checkDecisionHelper(env: NodeJS.ProcessEnv): Promise<HelperCheck> {
  const uid = process.getuid?.();
  if (!helperEnabled(env) || uid === undefined)
    return { enabled: false, folder: null, folderProblem: null, running: [] };
  const folder = helperFolder(env, uid);
  let names: string[];
  try {
    names = await fs.readdir(folder);
  } catch {
    return { enabled: true, folder, folderProblem: null, running: [] }; // no helper has run yet
  }
  const folderProblem = unsafeFolderReason(folder, uid);
  const sockets = names.filter((n) => /^[0-9a-f]{16}\.sock$/.test(n)).map((n) => path.join(folder, n));
  return { enabled: true, folder, folderProblem, running: await Promise.all(sockets.map(ask)) };
}
