import { forgetLastGoodSettings } from '../../core/settings/watched-settings-file';
import type { HelperMessage, HelperOutput, HelperRequest } from './decision-helper-protocol';
import { servedByHelper } from './decision-helper-socket';
import { runCli } from './main';

/**
 * One request of the decision helper, run as the client's own process would run it: with exactly the client's
 * environment (process.env is changed in place: code that reads it directly sees the client's), working folder and
 * umask, its stdin, and its pid where a session is named after it. Nothing of an earlier request is kept: the engine,
 * the settings, the trust store and the policy are built and read again by the command, as in a fresh process, and
 * the one process-wide memory of settings (the last good version of each file) is cleared first. What the command
 * prints, and anything written to this process's stdout or stderr meanwhile, goes to the client, in order.
 */

function replaceEnv(env: Record<string, string | undefined>): void {
  for (const key of Object.keys(process.env)) if (!(key in env)) delete process.env[key];
  for (const [key, value] of Object.entries(env)) if (value !== undefined) process.env[key] = value;
}

type Write = typeof process.stdout.write;

/** Sends this process's stdout and stderr writes to `output` until the returned function is called. */
function captureStdio(output: HelperOutput): () => void {
  const originals = { out: process.stdout.write, err: process.stderr.write };
  const capture = (stream: 'out' | 'err'): Write =>
    ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      output.push({ stream, text: typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8') });
      const done = rest.find((r): r is () => void => typeof r === 'function');
      done?.();
      return true;
    }) as Write;
  process.stdout.write = capture('out');
  process.stderr.write = capture('err');
  return () => {
    process.stdout.write = originals.out;
    process.stderr.write = originals.err;
  };
}

export async function runDecisionRequest(
  request: HelperRequest,
  ownEnv: Record<string, string | undefined>,
): Promise<HelperMessage> {
  const served = servedByHelper(request.argv);
  if (served === null) return { type: 'refused', reason: 'not a command the helper serves' };
  if (served.readsStdin && request.stdin === undefined) return { type: 'refused', reason: 'the input is missing' };
  if (request.node !== process.version) return { type: 'refused', reason: `the helper runs Node ${process.version}` };
  try {
    process.chdir(request.cwd);
  } catch (err) {
    return { type: 'refused', reason: `cannot enter ${request.cwd}: ${(err as Error).message}` };
  }
  const output: HelperOutput = [];
  const umask = process.umask(request.umask);
  replaceEnv(request.env);
  forgetLastGoodSettings();
  const restoreStdio = captureStdio(output);
  try {
    const stdin = request.stdin;
    const exitCode = await runCli(request.argv, {
      out: (line) => output.push({ stream: 'out', text: line + '\n' }),
      err: (line) => output.push({ stream: 'err', text: line + '\n' }),
      env: process.env,
      cwd: request.cwd,
      ...(stdin === undefined ? {} : { stdin: () => Promise.resolve(stdin) }),
      pid: request.pid,
    });
    return { type: 'reply', exitCode, output };
  } catch (err) {
    // The in-process CLI prints such a failure with its stack: the client runs the command itself and does.
    return { type: 'refused', reason: `the command failed: ${err instanceof Error ? err.message : String(err)}` };
  } finally {
    restoreStdio();
    replaceEnv(ownEnv);
    process.umask(umask);
    process.chdir('/');
  }
}
