import type { Decision } from '../../shared/permission';
import type { PermissionRequest } from '../../shared/worker-protocol';
import type { BeforeToolCall } from './types';

/**
 * Adapts main's `permission.request` (over the port) to the runner's `beforeToolCall`: main decides, the worker only
 * acts on `allow`. An `ask` that reaches the worker (no one answered it) is a denial: the default answer is deny.
 */
export function permissionBridge(requestPermission: (request: PermissionRequest) => Promise<Decision>): BeforeToolCall {
  return async (call) => {
    const decision = await requestPermission({ tool: call.name, input: call.input, ...(call.preview ? { preview: call.preview } : {}) });
    if (decision.decision === 'allow') return { allow: true, source: decision.source, reason: decision.reason, rule: decision.rule };
    const reason = decision.decision === 'ask' ? `approval required: ${decision.reason}` : decision.reason;
    return { allow: false, source: decision.source, reason, rule: decision.rule };
  };
}
