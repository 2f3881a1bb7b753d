import type { Decision } from '../../../../shared/permission';
import { isUnsandboxedCall } from '../../../../shared/tools';
import { decision, type CallContext } from '../stage-types';

const UNSANDBOXED_ASK_REASON =
  'runs outside the OS sandbox (it can write anywhere, read your secrets and use the network): only you can allow ' +
  'this exact command, once; no rule, mode or earlier approval allows it';
const UNSANDBOXED_BYPASS_REASON = 'running a command outside the OS sandbox is unavailable in bypass mode';

/**
 * The cap on a `run_command` with `unsandboxed: true`, applied to whatever the stages decided: a deny stands (the
 * hard deny list, a deny rule); bypassPermissions mode denies it outright; everything else asks a person, whatever a
 * rule, a default, trust or the mode said. Only a person's "allow once" lets it through (see approvals.ts).
 */
export function capUnsandboxed(result: Decision, ctx: CallContext): Decision {
  if (!isUnsandboxedCall(ctx.tool, ctx.input) || result.decision === 'deny') return result;
  if (ctx.mode === 'bypassPermissions') return decision('deny', 'mode', UNSANDBOXED_BYPASS_REASON);
  if (result.decision === 'ask') return { ...result, reason: `${UNSANDBOXED_ASK_REASON}; also: ${result.reason}` };
  return decision('ask', 'hard', UNSANDBOXED_ASK_REASON);
}
