import { toRpcError } from '../../../shared/errors';
import { openCliSession } from '../../services/agent-runs/session-flags';
import { flushLogs } from '../../core/log/logger';
import { RpcShell } from './rpc-shell';
import { sandboxWarnings } from './sandbox-warnings';
import { settingsWarnings } from '../../core/settings/settings-problems';
import type { CliCommand, CommandHelp } from './command';
import { UsageError } from './command';
import { parseCommandArgs } from './args';
import { readyEvent } from './run-command';
import { readSessionFlags, SESSION_OPTIONS } from './session-flags';

const HELP: CommandHelp = {
  description:
    'A session driven over stdio, for editors and scripts: one JSON command per line on stdin (prompt, approve, ' +
    "cancel, checkpoints), one JSON event per line on stdout (ready first, then each prompt's events and result). " +
    'Every command is answered; once stdin ends, every ask is denied "approval required" and the process exits ' +
    'when the run ends.',
  forms: [
    {
      usage:
        '[--project DIR] [--mode MODE] [--agent-mode M] [--model NAME] [--allow RULE]... [--ask RULE]... ' +
        '[--deny RULE]... [--max-turns N] [--resume ID]',
      does: 'open a session and read commands from stdin',
    },
  ],
  options: SESSION_OPTIONS,
  examples: [
    {
      command: 'echo \'{"type":"prompt","id":"1","text":"List the files"}\' | gatehouse rpc --project ~/code/app',
      does: 'one prompt; its events and result on stdout',
    },
    {
      command: 'gatehouse rpc --resume 0b6a8c3e-5f2d-4e91-9a7b-1c2d3e4f5a6b < commands.jsonl',
      does: 'continue a saved session with the commands of a file',
    },
  ],
};

export const rpcCommand: CliCommand = {
  name: 'rpc',
  help: HELP,
  async run(args, io) {
    const { values: flags, positionals } = parseCommandArgs(args, SESSION_OPTIONS);
    const values = readSessionFlags(flags, io.cwd);
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}" (prompts come on stdin)`);
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
