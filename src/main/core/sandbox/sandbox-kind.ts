/**
 * The sandbox matches the reason a command was allowed (contract, "Defence in depth"). A `run_command` that runs
 * without a person only because the engine judged it read-only (the mode's read column, nothing else) runs in the
 * read-only sandbox: if the analysis was wrong, what runs can read but never write, connect or escalate. A command a
 * rule, the mode's exec column, a hook, the auto-mode classifier or a person allowed keeps the workspace sandbox
 * (project writable, network by the allow-list). main decides it here, where the reason is known, and sends it to
 * the worker in the final decision's `sandbox`; the same word goes to the audit log and the call's event.
 */
import type { Decision, SandboxKind } from '../../../shared/permission';
import { isUnsandboxedCall, type ToolCategory } from '../../../shared/tools';
import type { SandboxStatus } from '../../../shared/worker-protocol';
import { SANDBOXED_TOOL } from './sandbox-gate';

export interface SandboxKindFacts {
  tool: string;
  input: unknown;
  /** The engine's category of the call (`read`: it judged the command read-only); null when it never got that far. */
  category: ToolCategory | null;
  /** The worker's sandbox for the run (null: not known; the reason alone decides). */
  status: SandboxStatus | null;
}

/** Where a command allowed by `allow` runs. */
export function sandboxKindOf(allow: Decision, facts: SandboxKindFacts): SandboxKind {
  if (isUnsandboxedCall(facts.tool, facts.input)) return 'outside';
  const { status } = facts;
  if (status !== null && !status.enabled) return 'off';
  // Unavailable without a mechanism: commands run unconfined (each one a person allowed). With one, the sandbox is
  // there but incomplete (a Read deny mask): it still confines.
  if (status !== null && !status.available && status.mechanism === undefined) return 'unavailable';
  return allow.source === 'mode' && facts.category === 'read' ? 'read-only' : 'workspace';
}

/** The decision with its `sandbox` when it allows a run_command; any other decision as it is (never a stray field). */
export function withSandboxKind(d: Decision, facts: SandboxKindFacts): Decision {
  const { sandbox: _ignored, ...rest } = d;
  if (facts.tool !== SANDBOXED_TOOL || d.decision !== 'allow') return d.sandbox === undefined ? d : rest;
  return { ...rest, sandbox: sandboxKindOf(d, facts) };
}
