import type { ToolCallDecided, ToolPreview } from '../../../shared/agent-events';
import type { GateOutcome } from '../../core/gate/decision-path';

/** The gate between the worker and the engine is the decision path (src/main/core/gate/decision-path.ts). */
export { decideCall } from '../../core/gate/decision-path';

/**
 * The call's one decision event (`tool_call_decided`), as main emits it before answering the worker; `preview`: the
 * write's preview as the decision keeps it (storedPreview).
 */
export function decisionEvent(
  callId: string,
  outcome: GateOutcome,
  agent?: string,
  preview?: ToolPreview,
): ToolCallDecided {
  const { engine, final, answer, hooks, classifier } = outcome;
  return {
    type: 'tool_call_decided',
    id: callId,
    ...(agent ? { agent } : {}),
    allow: final.decision === 'allow',
    source: final.source,
    reason: final.decision === 'ask' ? `approval required: ${final.reason}` : final.reason,
    rule: final.rule,
    ...(final.sandbox ? { sandbox: final.sandbox } : {}),
    ...(engine.decision === 'ask'
      ? { asked: { source: engine.source, reason: engine.reason, rule: engine.rule } }
      : {}),
    ...(answer ? { answer } : {}),
    ...(hooks?.length ? { hooks } : {}),
    ...(classifier ? { classifier } : {}),
    ...(preview ? { preview } : {}),
  };
}
