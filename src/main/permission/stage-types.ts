import type { AgentMode, Decision, DecisionKind, DecisionSource, PermissionMode } from '../../shared/permission';
import type { ToolCategory, ToolName } from '../../shared/tools';
import type { CallFacts } from './call-facts';
import type { JudgedPath } from './judged-path';
import type { PathConfinement } from './path-confinement';
import type { ProtectedPaths } from './protected-paths';
import type { RuleSet } from './rules/rule-set';
import type { RuleSourceName } from './rules/rule-types';

/** A stage's answer: a decision, or "no opinion, ask the next stage" (never leaves the engine). */
export const PASSTHROUGH = 'passthrough' as const;
export type StageAnswer = Decision | typeof PASSTHROUGH;

/** Everything the stages know about the engine's situation at the time of one call. */
export interface EngineState {
  projectRoot: string;
  home: string;
  mode: PermissionMode;
  agentMode: AgentMode;
  trusted: boolean;
  confinement: PathConfinement;
  protectedPaths: ProtectedPaths;
  rules: RuleSet;
  /** Settings files that are broken and never had a good version (their deny/ask rules are unknown): fail closed. */
  unknownRules?: readonly { file: string; source: RuleSourceName; reason: string }[];
}

/** A known tool with valid input: what stages 3 and later judge. */
export interface CallContext extends EngineState {
  tool: ToolName;
  input: Record<string, unknown>;
  facts: CallFacts;
  category: ToolCategory;
  /** Paths an explicit allow rule covers (filled by the rules stage): they override the defaults. */
  explicitlyAllowed: Set<JudgedPath>;
}

export function decision(
  kind: DecisionKind,
  source: DecisionSource,
  reason: string,
  rule: string | null = null,
): Decision {
  return { decision: kind, source, rule, reason };
}
