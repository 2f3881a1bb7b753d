import type { ClassifierVerdictWire } from '../../shared/agent-events';
import type { Decision } from '../../shared/permission';
import type { AutoModeState } from '../auto/auto-mode';

/** What auto mode made of an ask. */
export interface AutoGateResult {
  /** The classifier allowed: the call runs (source `auto`, the classifier's reason). */
  final?: Decision;
  /** The ask as the person sees it: with the classifier's block, or the fallback, in its reason. */
  asked?: Decision;
  /** The answer where nobody can approve: denied with the classifier's reason. */
  headless?: Decision;
  verdict?: ClassifierVerdictWire;
}

/**
 * Auto mode between the engine's ask and the person: only an ask the engine itself marked `classifiable` (the mode's
 * or the defaults' ask in auto mode, in a trusted project) is shown to the classifier. Null: not auto's to judge.
 */
export async function autoGate(
  auto: AutoModeState | null,
  call: { tool: string; input: unknown },
  asked: Decision,
  signal: AbortSignal,
): Promise<AutoGateResult | null> {
  if (auto === null || asked.decision !== 'ask' || asked.classifiable !== true) return null;
  const outcome = await auto.judge({ ...call, asked: asked.reason }, signal);
  if (outcome.kind === 'manual') return { asked: { ...asked, reason: `${asked.reason} (${outcome.reason})` } };
  const verdict = outcome.verdict;
  if (outcome.kind === 'allow') {
    return {
      verdict,
      final: {
        decision: 'allow',
        source: 'auto',
        rule: null,
        reason: `allowed by the auto-mode classifier: ${verdict.reason}`,
      },
    };
  }
  const blocked = `the auto-mode classifier blocked it: ${verdict.reason}`;
  return {
    verdict,
    asked: { ...asked, reason: `${asked.reason}; ${blocked}` },
    headless: { decision: 'deny', source: 'auto', rule: null, reason: `${blocked} (nobody can approve it here)` },
  };
}
