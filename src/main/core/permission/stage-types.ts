import type { AgentMode, Decision, DecisionKind, DecisionSource, PermissionMode } from '../../../shared/permission';
import type { ToolCategory, ToolName } from '../../../shared/tools';
import type { CallFacts } from './call-facts';
import type { JudgedPath } from '../paths/judged-path';
import type { PathConfinement } from '../paths/path-confinement';
import type { ProtectedPaths } from './protected-paths';
import type { RuleSet } from './rules/rule-set';
import type { RuleSourceName } from '../rule-syntax/rule-types';
import type { LoadedHook } from '../settings/settings-store';

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
  /** Every configured hook (src/main/core/hooks decides which run: trust, event, matcher). */
  hooks?: readonly LoadedHook[];
  /** The trust decision enables the project's allow rules, mode and directories (trust is specific); absent: yes. */
  projectRulesEnabled?: boolean;
  /** The trust decision enables the project's hooks (trust is specific); absent: yes. */
  projectHooksEnabled?: boolean;
  /**
   * MCP tools that count as `read` (`mcp__<server>__<tool>`): a readOnlyHint from a server the person configured
   * (user or policy settings). Every other MCP tool is `exec`.
   */
  mcpReadTools?: ReadonlySet<string>;
}

/**
 * What a call's PreToolUse hooks said (src/main/core/hooks runs them, after agent mode and schema, before the hard
 * checks). deny denies; ask asks even where rules allow (a deny still wins); allow counts as an allow rule of the
 * hooks' sources: never over hard checks, deny or ask rules, an unreadable command or the trust cap.
 */
export interface HookVerdict {
  decision: DecisionKind;
  /** The settings sources of the hooks that decided (the trust cap judges an allow by these). */
  sources: RuleSourceName[];
  /** The hooks that decided, named by their commands (the decision's `rule`). */
  hooks: string;
  /** Which hooks said what, for the person and the model. */
  reason: string;
}

/** A known tool with valid input: what stages 3 and later judge. */
export interface CallContext extends EngineState {
  tool: ToolName;
  input: Record<string, unknown>;
  facts: CallFacts;
  category: ToolCategory;
  /** Paths an explicit allow rule covers (filled by the rules stage): they override the defaults. */
  explicitlyAllowed: Set<JudgedPath>;
  /** The PreToolUse hooks' allow, if they allowed: an allow rule of their sources (rules stage). */
  hookAllow?: HookVerdict | null;
}

export function decision(
  kind: DecisionKind,
  source: DecisionSource,
  reason: string,
  rule: string | null = null,
): Decision {
  return { decision: kind, source, rule, reason };
}
