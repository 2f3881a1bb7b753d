import type { RuleBehavior } from '../../../shared/permission';
import type { ToolName } from '../../../shared/tools';

/** Where a rule came from. `policy`..`user` are the Decision sources of the contract. */
export type RuleSourceName = 'policy' | 'cli' | 'session' | 'local' | 'project' | 'user';

/** Sources whose allow rules pass the trust cap (granted by a person in this run, or managed policy). */
export const TRUST_EXEMPT_SOURCES: ReadonlySet<RuleSourceName> = new Set(['policy', 'cli', 'session']);

/** Order used to report the winner when several rules of the same behaviour match. */
export const SOURCE_ORDER: readonly RuleSourceName[] = ['policy', 'cli', 'session', 'local', 'project', 'user'];

/** How a rule's specifier is matched. */
export type RuleMatcherKind = 'command' | 'path' | 'any' | 'none' | 'mcp';

/** A rule after parsing: which tools it applies to and how it matches. */
export interface ParsedRule {
  /** The rule as written, trimmed. */
  text: string;
  /** The tool part (`Bash`, `Read`, `write_file`, `WebFetch`, ...). */
  toolName: string;
  /** The text between the parentheses, or null for a bare tool name. */
  specifier: string | null;
  /** Gatehouse tools this rule applies to; empty for tools Gatehouse does not have (kept, matches nothing). */
  tools: readonly ToolName[];
  kind: RuleMatcherKind;
  /** An MCP rule (`mcp__server`, `mcp__server__*`, `mcp__server__tool`): its server, and its tool (null: every tool). */
  mcp?: { server: string; tool: string | null };
}

/** A parsed rule placed in a source with a behaviour. */
export interface LoadedRule extends ParsedRule {
  behavior: RuleBehavior;
  source: RuleSourceName;
  /** The settings file the rule came from, or null (CLI flags, session). */
  file: string | null;
}

/** A rule that failed to parse: reported, skipped; the rest of its file applies. */
export interface RuleError {
  rule: string;
  behavior: RuleBehavior;
  source: RuleSourceName;
  file: string | null;
  reason: string;
}
