import { useEffect, useId, useState } from 'react';
import type { RuleBehavior } from '../../../../shared/permission';
import type { EditableScope } from '../../../../shared/rules-contract';
import { REPLAY_CALLS, type ReplayFlip } from '../../../../shared/rule-builder-contract';
import { errorMessage } from '../../api/errors';
import { useApi } from '../../api/context';
import { Shown, shownText } from '../../display/Shown';

type Replay =
  | { state: 'idle' }
  | { state: 'running' }
  | { state: 'done'; checked: number; flips: ReplayFlip[] }
  | { state: 'failed'; error: string };

/** What the log says happened, in words ("you denied it", "asked"). */
function recordedText(f: ReplayFlip): string {
  const { decision, source } = f.recorded;
  if (source === 'approval') return decision === 'allow' ? 'you allowed it' : 'you denied it';
  return decision === 'allow' ? 'allowed' : decision === 'deny' ? 'denied' : 'asked';
}

function summary(r: Replay): string {
  switch (r.state) {
    case 'running':
      return `Judging the last ${REPLAY_CALLS} calls with this rule…`;
    case 'failed':
      return `Could not replay the recent calls: ${r.error}`;
    case 'done':
      if (r.checked === 0) return 'No calls in this project’s audit log yet: nothing to compare with.';
      return r.flips.length === 0
        ? `None of the last ${r.checked} calls would be decided differently.`
        : `${r.flips.length} of the last ${r.checked} calls would be decided differently:`;
    default:
      return 'Once the rule is valid, the recent calls it would decide differently show here.';
  }
}

/**
 * Before saving: the project's last REPLAY_CALLS audited calls judged by the engine in main without and with the rule
 * (as if written to its scope's file), and those whose decision would change.
 */
export function ReplayList({
  rule,
  behavior,
  scope,
  version,
}: {
  rule: string | null;
  behavior: RuleBehavior;
  scope: EditableScope;
  /** Changes when the settings did (a rule was saved): the replay runs again. */
  version: number;
}) {
  const api = useApi();
  const [replay, setReplay] = useState<Replay>({ state: 'idle' });
  const titleId = useId();

  useEffect(() => {
    if (rule === null) {
      setReplay({ state: 'idle' });
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      setReplay({ state: 'running' });
      api.replayRule({ rule, behavior, scope }).then(
        (r) => live && setReplay({ state: 'done', checked: r.checked, flips: r.flips }),
        (err: unknown) => live && setReplay({ state: 'failed', error: errorMessage(err) }),
      );
    }, 250);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [api, rule, behavior, scope, version]);

  return (
    <section className="builder-replay" aria-labelledby={titleId} data-testid="builder-replay">
      <h4 id={titleId}>Recent calls it would change</h4>
      <p
        className={replay.state === 'failed' ? 'error' : 'muted'}
        aria-live="polite"
        data-testid="builder-replay-summary"
      >
        <Shown text={summary(replay)} />
      </p>
      {replay.state === 'done' && replay.flips.length > 0 ? (
        <ul className="builder-replay-list" aria-label="Calls decided differently">
          {replay.flips.map((f) => (
            <li key={`${f.tool}|${f.target}|${f.time}`} className="builder-replay-row" data-testid="builder-replay-row">
              <Shown className="muted" text={f.tool} strict lines="inline" as="code" />
              <Shown className="builder-replay-target" text={f.target} strict lines="inline" as="code" />
              {f.count > 1 ? <span className="muted">{shownText(`×${f.count}`)}</span> : null}
              <span className="builder-replay-change">
                <Shown
                  className={`rules-badge rules-badge-${f.before.decision}`}
                  text={f.before.decision}
                  lines="inline"
                />
                <span aria-hidden="true"> → </span>
                <span className="visually-hidden"> would become </span>
                <Shown
                  className={`rules-badge rules-badge-${f.after.decision}`}
                  text={f.after.decision}
                  lines="inline"
                />
              </span>
              <Shown className="muted builder-replay-note" text={`last time: ${recordedText(f)}`} lines="inline" />
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
