/**
 * Without a working OS sandbox nothing bounds what a command does, so no command runs without a person: a
 * run_command the engine (a rule, a mode, bypassPermissions) would allow is turned into an ask. Deny and ask
 * stand as they are. The user turning the sandbox off in their own settings is their explicit choice: no change.
 */
import type { Decision } from '../../shared/permission';
import type { SandboxStatus } from '../../shared/worker-protocol';

export const SANDBOXED_TOOL = 'run_command';

/** True when commands would run unconfined although the user did not turn the sandbox off. */
export function sandboxMissing(status: SandboxStatus): boolean {
  return status.enabled && !status.available;
}

export function unavailableReason(status: SandboxStatus): string {
  return `the OS sandbox is unavailable (${status.reason ?? 'unknown reason'}): every command needs approval`;
}

/** The engine's decision, or the ask that replaces an allow of run_command while the sandbox is missing. */
export function gateOnSandbox(tool: string, decision: Decision, status: SandboxStatus | null): Decision {
  if (tool !== SANDBOXED_TOOL || decision.decision !== 'allow' || status === null || !sandboxMissing(status)) return decision;
  return { decision: 'ask', source: 'hard', rule: null, reason: unavailableReason(status) };
}
