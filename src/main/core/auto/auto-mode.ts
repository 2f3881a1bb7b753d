import type { AutoRunStats, ClassifierVerdictWire } from '../../../shared/agent-events';
import type { ClassifierCall } from './classifier-request';
import type { ClassifierVerdict } from './classifier';

/** After this many blocks in a row, or in all, auto mode falls back to manual approval for the session. */
const MAX_CONSECUTIVE_BLOCKS = 3;
const MAX_TOTAL_BLOCKS = 20;

/** The call as the gate knows it (the session adds the working folder). */
export type AutoCall = Omit<ClassifierCall, 'cwd'>;

export type AutoOutcome =
  | { kind: 'allow'; verdict: ClassifierVerdict }
  | { kind: 'block'; verdict: ClassifierVerdict }
  /** The session fell back to manual approval: the classifier is no longer asked. */
  | { kind: 'manual'; reason: string };

export interface AutoModeOptions {
  /** Asks the classifier (see classifier.ts: never throws, anything but a valid allow is a block). */
  classify: (call: AutoCall, signal: AbortSignal) => Promise<ClassifierVerdict>;
  /** Told once, when the session falls back to manual approval. */
  onFallback: (reason: string, counts: { consecutive: number; total: number }) => void;
}

/**
 * Auto mode's state for one session: the blocks counted (in a row, in all), the fallback to manual approval once
 * a limit is reached (for the rest of the session).
 */
export class AutoModeState {
  private consecutive = 0;
  private total = 0;
  private fellBack: string | null = null;

  constructor(private readonly options: AutoModeOptions) {}

  /** Why the session no longer uses the classifier, or null while it does. */
  get fallback(): string | null {
    return this.fellBack;
  }

  async judge(call: AutoCall, signal: AbortSignal): Promise<AutoOutcome> {
    if (this.fellBack !== null) return { kind: 'manual', reason: this.fellBack };
    const verdict = await this.options.classify(call, signal);
    if (verdict.decision === 'allow') {
      this.consecutive = 0;
      return { kind: 'allow', verdict };
    }
    this.consecutive++;
    this.total++;
    if (this.fellBack === null && (this.consecutive >= MAX_CONSECUTIVE_BLOCKS || this.total >= MAX_TOTAL_BLOCKS)) {
      this.fellBack =
        this.consecutive >= MAX_CONSECUTIVE_BLOCKS
          ? `the classifier blocked ${this.consecutive} calls in a row: auto mode fell back to manual approval for the rest of this session`
          : `the classifier blocked ${this.total} calls in this session: auto mode fell back to manual approval for the rest of this session`;
      this.options.onFallback(this.fellBack, { consecutive: this.consecutive, total: this.total });
    }
    return { kind: 'block', verdict };
  }
}

/** A run's classifier cost with one more verdict counted. */
export function withVerdict(stats: AutoRunStats | undefined, v: ClassifierVerdictWire): AutoRunStats {
  const s = stats ?? { calls: 0, allowed: 0, blocked: 0, inputTokens: 0, outputTokens: 0, latencyMs: 0 };
  return {
    calls: s.calls + 1,
    allowed: s.allowed + (v.decision === 'allow' ? 1 : 0),
    blocked: s.blocked + (v.decision === 'block' ? 1 : 0),
    inputTokens: s.inputTokens + v.inputTokens,
    outputTokens: s.outputTokens + v.outputTokens,
    latencyMs: s.latencyMs + v.latencyMs,
  };
}
