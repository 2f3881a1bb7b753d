import type { HookRunWire } from '../../../shared/agent-events';
import { Shown, shownText } from '../display';

const OUTCOME_WORDS: Record<HookRunWire['outcome'], { text: string; tone: 'ok' | 'warn' | 'bad' | 'muted' }> = {
  allow: { text: 'allowed', tone: 'ok' },
  deny: { text: 'denied', tone: 'bad' },
  ask: { text: 'asked a person', tone: 'warn' },
  block: { text: 'blocked', tone: 'bad' },
  none: { text: 'no decision', tone: 'muted' },
  failed: { text: 'failed: the call asks', tone: 'warn' },
};

/**
 * The hooks that ran for one tool call, on its card: which hook (event, command, scope), its decision and how
 * long it took, and what it said (a deny's reason, a failure's error). Nothing when no hook ran.
 */
export function HookRuns({ runs }: { runs: readonly HookRunWire[] | undefined }) {
  if (!runs?.length) return null;
  return (
    <ul className="hook-runs" aria-label="Hook runs" data-testid="hook-runs">
      {runs.map((run, i) => {
        const words = OUTCOME_WORDS[run.outcome];
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
