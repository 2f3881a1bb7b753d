import type { AgentSession } from '../../services/agent-runs/agent-session';
import type { PromptResult, SessionEvent } from '../../services/agent-runs/types';
import { openCliSession } from '../../services/agent-runs/session-flags';
import { flushLogs } from '../../core/log/logger';
import { TextRenderer } from './text-renderer';
import { sandboxWarnings } from './sandbox-warnings';
import { settingsWarnings } from '../../core/settings/settings-problems';
import { ttyApprover } from './tty-approver';
import type { RpcEvent } from '../../../shared/rpc-protocol';
import { GATEHOUSE_VERSION } from '../../../shared/version';
import type { CliCommand, CommandHelp, OptionSpecs } from './command';
import { UsageError } from './command';
import { parseCommandArgs } from './args';
import { readSessionFlags, SESSION_OPTIONS } from './session-flags';

const PROMPT_ID = 'run';

const OPTIONS = {
  ...SESSION_OPTIONS,
  output: {
    type: 'string',
    value: 'FORMAT',
    choices: ['text', 'json'],
    help: 'text: the answer and one line per tool call; json: one JSON event per line (as gatehouse rpc)',
  },
} as const satisfies OptionSpecs;

const HELP: CommandHelp = {
  description:
    'The agent once on a prompt, without a window, through the same permission engine as the app. The model key ' +
    'comes from ANTHROPIC_API_KEY or your settings (ANTHROPIC_BASE_URL points it at a compatible server). On a ' +
    'terminal a call that asks gets a y/N question (default N); with no terminal it is denied "approval required". ' +
    'Ctrl-C cancels the run (exit 130; the session can be resumed).',
  forms: [
    {
      usage:
        '[--project DIR] [--mode MODE] [--agent-mode M] [--output FORMAT] [--model NAME] [--allow RULE]... ' +
        '[--ask RULE]... [--deny RULE]... [--max-turns N] [--resume ID] [--] "PROMPT"',
      does: 'run the prompt to its end and print the answer',
    },
  ],
  options: OPTIONS,
  examples: [
    { command: 'gatehouse run --project ~/code/app "Why does npm test fail?"', does: 'ask about a project' },
    {
      command: 'gatehouse run --mode acceptEdits --allow \'Bash(npm test:*)\' "Fix the failing test"',
      does: 'let it edit files and run npm test without asking',
    },
    {
      command: 'gatehouse run --agent-mode plan --output json "Plan the upgrade to React 20" > plan.jsonl',
      does: 'a read-only plan, as JSON events',
    },
  ],
};

export const runCommand: CliCommand = {
  name: 'run',
  help: HELP,
  async run(args, io) {
    const { values: flags, positionals } = parseCommandArgs(args, OPTIONS);
    const values = readSessionFlags(flags, io.cwd);
    const output = flags.output ?? 'text';
    const prompt = positionals.join(' ').trim();
    if (!prompt) throw new UsageError('missing the prompt');
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
