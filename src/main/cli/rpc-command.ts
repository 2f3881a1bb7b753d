import { toRpcError } from '../../shared/errors';
import { openCliSession } from '../agent/session-flags';
import { flushLogs } from '../log';
import { RpcShell } from './rpc-shell';
import { sandboxWarnings } from './sandbox-warnings';
import { settingsWarnings } from '../settings/settings-problems';
import type { CliCommand } from './command';
import { UsageError } from './command';
import { parseCommandArgs } from './args';
import { readyEvent } from './run-command';
import { readSessionFlags, SESSION_OPTIONS } from './session-flags';

export const rpcCommand: CliCommand = {
  name: 'rpc',
  usage:
    'gatehouse rpc [--project DIR] [--mode M] [--agent-mode chat|plan|do] [--model M] [--allow RULE]... [--ask RULE]... ' +
    '[--deny RULE]... [--max-turns N] [--resume ID]   (stdin: {"type":"prompt","id":"1","text":"..."} per line)',
  async run(args, io) {
    const { values: flags, positionals } = parseCommandArgs(args, SESSION_OPTIONS);
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}" (prompts come on stdin)`);
    const values = readSessionFlags(flags, io.cwd);
    const shell = new RpcShell((event) => io.out(JSON.stringify(event)));
    // Read stdin from the start, so nothing sent before the session opens is lost.
    process.stdin.setEncoding('utf8');
    const ended = new Promise<void>((resolve) => process.stdin.once('end', () => resolve()));
    const early: string[] = [];
    let opened = false;
    process.stdin.on('data', (chunk: string) => (opened ? shell.feed(chunk) : early.push(chunk)));
    let session;
    try {
      session = await openCliSession(values, io, shell.approve);
    } catch (err) {
      // The client reads stdout: it gets the failure as an event too, then the process exits 1.
      io.out(JSON.stringify({ type: 'error', ...toRpcError(err) }));
      process.stdin.destroy();
      throw err;
    }
    shell.attach(session);
    for (const w of sandboxWarnings(session.sandboxStatus)) io.err(`gatehouse rpc: ${w}`);
    for (const w of settingsWarnings(await session.settingsSnapshot())) io.err(`gatehouse rpc: ${w}`);
    io.out(JSON.stringify(readyEvent(session, values.resume !== undefined)));
    opened = true;
    for (const chunk of early.splice(0)) shell.feed(chunk);
    const onSigint = (): void => void session.cancel();
    process.once('SIGINT', onSigint);
    // The client stopped reading events: the run is cancelled (it could not answer approvals either).
    const offClosed = io.onOutputClosed?.(onSigint);
    try {
      await ended;
      await shell.end();
    } finally {
      process.off('SIGINT', onSigint);
      offClosed?.();
      await session.close();
      await flushLogs(); // main.log and worker.log are complete before the process exits
    }
    return 0;
  },
};
