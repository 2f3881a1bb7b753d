import type { HookRunWire } from '../../../shared/agent-events';
import { Shown, shownText } from '../display/Shown';

type Words = { text: string; tone: 'ok' | 'warn' | 'bad' | 'muted' };

const OUTCOME_WORDS: Record<HookRunWire['outcome'], Words> = {
  allow: { text: 'allowed', tone: 'ok' },
  deny: { text: 'denied', tone: 'bad' },
  ask: { text: 'asked a person', tone: 'warn' },
  block: { text: 'blocked', tone: 'bad' },
  none: { text: 'no decision', tone: 'muted' },
  failed: { text: 'failed: the call asks', tone: 'warn' },
};

/** What a run did, in the words of its event: outside PreToolUse a block or a message goes to the model or the person. */
function wordsFor(run: HookRunWire): Words {
  const said = run.message !== '';
  // A failing hook outside PreToolUse changes nothing: the run goes on.
  if (run.outcome === 'failed' && run.event !== 'PreToolUse') return { text: 'failed', tone: 'warn' };
  switch (run.event) {
    case 'PostToolUse':
      // Only a block is news the model must act on; context, or no decision at all, is neutral.
      if (run.outcome === 'block') return { text: 'told the model', tone: 'warn' };
      return said ? { text: 'added context', tone: 'muted' } : OUTCOME_WORDS.none;
    case 'UserPromptSubmit':
      if (run.outcome === 'block') return { text: 'blocked the prompt', tone: 'bad' };
      return said ? { text: 'added context', tone: 'muted' } : OUTCOME_WORDS.none;
    case 'SessionStart':
      return said ? { text: 'added context', tone: 'muted' } : OUTCOME_WORDS.none;
    case 'Stop':
      return run.outcome === 'block' ? { text: 'kept the run going', tone: 'warn' } : OUTCOME_WORDS.none;
    default:
      return OUTCOME_WORDS[run.outcome];
  }
}

/**
 * The hooks that ran for one tool call, on its card (PreToolUse and PostToolUse), or at a prompt or the end of a
 * run, as a line in the chat: which hook (event, command, scope), its decision and how long it took, and what it said
 * (a deny's reason, a failure's error, the feedback or context it gave the model). Nothing when no hook ran.
 */
export function HookRuns({ runs }: { runs: readonly HookRunWire[] | undefined }) {
  if (!runs?.length) return null;
  return (
    <ul className="hook-runs" aria-label="Hook runs" data-testid="hook-runs">
      {runs.map((run, i) => {
        const words = wordsFor(run);
        return (
          <li key={`${run.event}|${run.command}|${i}`} title={shownText(run.file, { strict: true })}>
            <Shown text={`${run.event} hook `} lines="inline" />
            <Shown text={run.command} strict lines="inline" as="code" />
            <Shown className="muted" text={` (${run.source}) `} lines="inline" />
            <Shown className={`badge badge-${words.tone}`} text={words.text} lines="inline" />
            <Shown className="muted" text={` ${Math.round(run.durationMs)} ms`} lines="inline" />
            {run.message ? (
              <>
                {': '}
                <Shown text={run.message} lines="inline" />
              </>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
