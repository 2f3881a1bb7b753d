import { z } from 'zod';

export const PermissionModeSchema = z.enum(['strict', 'default', 'acceptEdits', 'auto', 'bypassPermissions']);
export type PermissionMode = z.infer<typeof PermissionModeSchema>;

export const AgentModeSchema = z.enum(['chat', 'plan', 'do']);
export type AgentMode = z.infer<typeof AgentModeSchema>;

export const DecisionKindSchema = z.enum(['allow', 'deny', 'ask']);
export type DecisionKind = z.infer<typeof DecisionKindSchema>;

/** Which stage of the engine decided. */
export const DecisionSourceSchema = z.enum([
  'agent-mode',
  'system',
  'schema',
  'unknown',
  'hook',
  'hard',
  'policy',
  'cli',
  'session',
  'local',
  'project',
  'user',
  'defaults',
  'trust',
  'mode',
  'approval',
  /** auto mode: the classifier model allowed an ask the mode or the defaults made (see src/main/core/auto). */
  'auto',
]);
export type DecisionSource = z.infer<typeof DecisionSourceSchema>;

/**
 * Where an allowed `run_command` runs, as main decided it from the reason it was allowed (contract, "Defence in
 * depth": the sandbox matches the reason). `read-only`: nothing but the engine's read-only verdict let it through
 * (the mode's read column): the read-only sandbox (no writes but its own temp folder, no network). `workspace`: a
 * rule, the mode's exec column, a hook, the classifier or a person allowed it: the sandbox with the project
 * writable and the network allow-list. `off`: the person turned the sandbox off. `unavailable`: no sandbox works
 * here and a person allowed the command. `outside`: a person allowed this one command outside the sandbox.
 */
export const SandboxKindSchema = z.enum(['read-only', 'workspace', 'off', 'unavailable', 'outside']);
export type SandboxKind = z.infer<typeof SandboxKindSchema>;

/** How every surface (approval, tool card, audit view, CLI) names where a command ran. */
export const SANDBOX_KIND_LABELS: Record<SandboxKind, string> = {
  'read-only': 'read-only sandbox',
  workspace: 'sandbox: project writable',
  off: 'no sandbox (turned off)',
  unavailable: 'no sandbox (unavailable)',
  outside: 'outside the sandbox (allowed once)',
};

/** What the engine answers for every tool call: the decision, who made it, the rule (if any) and why. */
export const DecisionSchema = z.object({
  decision: DecisionKindSchema,
  source: DecisionSourceSchema,
  rule: z.string().nullable(),
  reason: z.string(),
  /**
   * Set by the engine only, on an `ask` in auto mode that came from the mode or the defaults in a trusted project:
   * the classifier may answer it in the person's place. Every other ask (a rule's, a hook's, an unreadable command,
   * a command outside the sandbox, trust) and every deny goes to the person as before.
   */
  classifiable: z.boolean().optional(),
  /**
   * Set by main only, on the final `allow` of a `run_command` (see SandboxKindSchema). The worker runs a command
   * whose allow lacks it in the read-only sandbox: a missing field never widens what runs.
   */
  sandbox: SandboxKindSchema.optional(),
});
export type Decision = z.infer<typeof DecisionSchema>;

/** A person's answer to an ask: allow this call once, for the session, always in this project, or deny it. */
export const ApprovalChoiceSchema = z.enum(['once', 'session', 'always', 'deny']);
export type ApprovalChoice = z.infer<typeof ApprovalChoiceSchema>;

export const RuleBehaviorSchema = z.enum(['allow', 'ask', 'deny']);
export type RuleBehavior = z.infer<typeof RuleBehaviorSchema>;

export const TrustScopeSchema = z.enum(['session', 'directory', 'parent', 'never']);
export type TrustScope = z.infer<typeof TrustScopeSchema>;

export const TrustDefaultSchema = z.enum(['trust', 'ask', 'never']);
export type TrustDefault = z.infer<typeof TrustDefaultSchema>;
