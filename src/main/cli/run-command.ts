import type { AgentSession, PromptResult, SessionEvent } from '../agent';
import { openCliSession } from '../agent/session-flags';
import { flushLogs } from '../log';
import { TextRenderer } from './text-renderer';
import { sandboxWarnings } from './sandbox-warnings';
import { settingsWarnings } from '../settings/settings-problems';
import { ttyApprover } from './tty-approver';
import type { RpcEvent } from '../../shared/rpc-protocol';
import { GATEHOUSE_VERSION } from '../../shared/version';
import type { CliCommand } from './command';
import { UsageError } from './command';
import { parseCommandArgs } from './args';
import { readSessionFlags, SESSION_OPTIONS } from './session-flags';

const PROMPT_ID = 'run';

export const runCommand: CliCommand = {
  name: 'run',
  usage:
    'gatehouse run [--project DIR] [--mode strict|default|acceptEdits|auto|bypassPermissions] [--agent-mode chat|plan|do] ' +
    '[--output text|json] [--model M] [--allow RULE]... [--ask RULE]... [--deny RULE]... [--max-turns N] [--resume ID] [--] "PROMPT"',
  async run(args, io) {
    const { values: flags, positionals } = parseCommandArgs(args, { ...SESSION_OPTIONS, output: { type: 'string' } });
    const output = flags.output ?? 'text';
    if (output !== 'text' && output !== 'json') throw new UsageError('--output must be text or json');
    const prompt = positionals.join(' ').trim();
    if (!prompt) throw new UsageError('missing the prompt');
    const values = readSessionFlags(flags, io.cwd);
    // With nobody at a terminal, an ask is denied "approval required"; on a TTY, a y/N prompt (default N).
    const interactive = process.stdin.isTTY === true && process.stderr.isTTY === true;
    const session = await openCliSession(values, io, interactive ? ttyApprover(process.stdin, process.stderr) : null);
    const emit = (event: RpcEvent): void => io.out(JSON.stringify(event));
    const text = new TextRenderer(io.out);
    if (output === 'json') emit(readyEvent(session, values.resume !== undefined));
    for (const p of session.problems) io.err(`gatehouse run: skipped a transcript line: ${p}`);
    for (const w of sandboxWarnings(session.sandboxStatus)) io.err(`gatehouse run: ${w}`);
    for (const w of settingsWarnings(await session.settingsSnapshot())) io.err(`gatehouse run: ${w}`);
    const onSigint = (): void => void session.cancel();
    process.once('SIGINT', onSigint);
    // Nobody reads the output any more (`gatehouse run ... | head -1`): the run stops as Ctrl-C would stop it.
    const offClosed = io.onOutputClosed?.(onSigint);
    let result: PromptResult;
    try {
      result = await session.prompt(prompt, {
        onEvent: (event) => (output === 'json' ? emit(toRpcEvent(PROMPT_ID, event)) : text.handle(event)),
      });
    } finally {
      process.off('SIGINT', onSigint);
      offClosed?.();
      await session.close();
      await flushLogs(); // main.log and worker.log are complete before the process exits
    }
    text.flush();
    if (output === 'json') emit({ type: 'result', promptId: PROMPT_ID, ...result });
    else io.err(`session ${result.sessionId} (${result.status}; resume with --resume ${result.sessionId})`);
    if (result.error) io.err(`gatehouse run: ${result.error.message}`);
    if (result.error?.code === 'WORKER_CRASHED')
      io.err(
        `gatehouse run: the run failed after ${result.turns} turn(s); what was done is kept: continue with --resume ${result.sessionId}`,
      );
    if (result.status === 'max_turns') io.err('gatehouse run: stopped by the max-turns guard');
    return result.status === 'error' ? 1 : result.status === 'cancelled' ? 130 : 0;
  },
};

export function readyEvent(session: AgentSession, resumed: boolean): RpcEvent {
  return {
    type: 'ready',
    sessionId: session.id,
    projectRoot: session.projectRoot,
    version: GATEHOUSE_VERSION,
    workerPid: session.host.status().info?.pid ?? null,
    resumed,
    problems: session.problems,
  };
}

export function toRpcEvent(promptId: string, event: SessionEvent): RpcEvent {
  return { type: 'agent', promptId, runId: event.runId, event: event.event };
}
