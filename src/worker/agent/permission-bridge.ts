import type { Decision } from '../../shared/permission';
import { isUnsandboxedCall } from '../../shared/tools';
import type { PermissionRequest } from '../../shared/worker-protocol';
import type { BeforeToolCall } from './types';

/**
 * Adapts main's `permission.request` (over the port) to the runner's `beforeToolCall`: main decides, the worker only
 * acts on `allow`. An `ask` that reaches the worker (no one answered it) is a denial: the default answer is deny.
 * main has put the call's decision event into the run's stream before answering (`announced`); only the worker's own
 * refusal of an allow is the worker's to report.
 */
export function permissionBridge(requestPermission: (request: PermissionRequest) => Promise<Decision>): BeforeToolCall {
  return async (call) => {
    const decision = await requestPermission({
      tool: call.name,
      input: call.input,
      ...(call.preview ? { preview: call.preview } : {}),
      ...(call.position ? { position: call.position } : {}),
      ...(call.agent ? { agent: call.agent } : {}),
    });
    if (decision.decision === 'allow' && isUnsandboxedCall(call.name, call.input) && decision.source !== 'approval') {
      // Outside the sandbox only on a person's approval of this very call: anything else is a bug, never a run.
      return {
        allow: false,
        source: 'internal',
        reason: `a command outside the OS sandbox runs only when you approve it (main allowed it by ${decision.source})`,
        rule: decision.rule,
      };
    }
    if (decision.decision === 'allow')
      return {
        allow: true,
        source: decision.source,
        reason: decision.reason,
        rule: decision.rule,
        announced: true,
        // main names the sandbox of every command it allows; without that word the narrower one (fail safe).
        ...(call.name === 'run_command' ? { sandbox: decision.sandbox ?? 'read-only' } : {}),
      };
    const reason = decision.decision === 'ask' ? `approval required: ${decision.reason}` : decision.reason;
    return { allow: false, source: decision.source, reason, rule: decision.rule, announced: true };
  };
}
