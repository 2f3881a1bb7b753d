import { shellParserReady } from './parse/parser';
import { newState } from './walk/state';
import type { CommandAnalysis } from './types';
import { ShellWalk } from './walk/walker';

/**
 * Analyses one `run_command` string with the bash grammar. Synchronous; `initShellParser()` must have been
 * awaited once before. The result lists every simple command (wrappers looked through), every write and read
 * by redirection, whether a fork bomb was defined, and whether anything could not be read.
 */
export function analyzeCommand(command: string): CommandAnalysis {
  if (!shellParserReady()) throw new Error('shell parser not initialised: await initShellParser() first');
  const state = newState();
  try {
    new ShellWalk(state).analyse(command);
  } catch (err) {
    // fail closed: whatever went wrong (a stack overflow on absurd nesting...), nobody can say what runs
    state.reasons.push(`the command could not be analysed: ${err instanceof Error ? err.message : String(err)}`);
  }
  return {
    readable: state.reasons.length === 0,
    unreadableReasons: state.reasons,
    commands: state.commands,
    writes: state.writes,
    reads: state.reads,
    forkBomb: state.forkBomb,
    changesDirectory: state.changesDirectory,
  };
}

/** A one-line human summary of an analysis, for logs and approval prompts. */
export function analysisSummary(a: CommandAnalysis): string {
  const parts = a.commands.map((c) => c.argv.join(' '));
  let s = parts.join(' ; ');
  if (a.writes.length > 0) s += ` (writes ${a.writes.map((w) => w.path).join(', ')})`;
  if (!a.readable) s += ` [unreadable: ${a.unreadableReasons.join('; ')}]`;
  return s;
}
