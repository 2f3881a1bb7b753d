import type { Decision, RuleBehavior } from '../../../../shared/permission';
import { inputLimitProblem } from '../../../../shared/input-limits';
import { parseMcpToolName } from '../../../../shared/mcp-contract';
import type { ToolCategory } from '../../../../shared/tools';
import type { CompiledRule } from '../rules/rule-set';
import { decision, type EngineState, type HookVerdict } from '../stage-types';
import { modeTableKind } from './mode';
import { capUnknownSettings } from './unknown-settings';
import { UNTRUSTED_ALLOW_EXCLUDED } from './trust';
import { TRUST_EXEMPT_SOURCES } from '../../rule-syntax/rule-types';

/** An MCP call the engine judged: its server and tool (for the approval's suggested rule and the audit log). */
export interface McpCall {
  name: string;
  server: string;
  tool: string;
  category: ToolCategory;
}

/**
 * The category of an MCP tool: `exec` (it may do anything), unless the worker reported it from one of the person's
 * own servers with a `readOnlyHint` (EngineState.mcpReadTools). A tool's name and description never count.
 */
function categoryOf(state: EngineState, name: string): ToolCategory {
  return state.mcpReadTools?.has(name) === true ? 'read' : 'exec';
}

function ruleDecision(kind: RuleBehavior, rule: CompiledRule, name: string): Decision {
  const verb = kind === 'deny' ? 'denied' : kind === 'ask' ? 'asks' : 'allowed';
  const where = rule.file ? ` in ${rule.file}` : '';
  return decision(kind, rule.source, `${name} ${verb} by the ${rule.source} rule ${rule.text}${where}`, rule.text);
}

const NOT_TRUSTED = 'this project is not trusted';

/**
 * An MCP tool call (`mcp__<server>__<tool>`), judged in the contract's order like every call: agent mode (plan: read
 * tools only), input (an object within the input limits; the server checks its own schema), the PreToolUse hooks'
 * verdict, rules (`mcp__server`, `mcp__server__*`, `mcp__server__tool`: deny, then ask, then allow, the trust cap on
 * allows), trust (an untrusted project's commands ask), the mode table with the tool's category. Null: not an MCP
 * tool name.
 */
export function mcpEvaluation(
  tool: string,
  input: unknown,
  state: EngineState,
  hook: HookVerdict | null | undefined,
): { decision: Decision; mcp: McpCall } | null {
  const parsed = parseMcpToolName(tool);
  if (parsed === null) return null;
  const category = categoryOf(state, tool);
  const mcp: McpCall = { name: tool, ...parsed, category };
  const done = (d: Decision): { decision: Decision; mcp: McpCall } => ({ decision: d, mcp });
  if (state.agentMode === 'plan' && category !== 'read')
    return done(
      decision(
        'deny',
        'agent-mode',
        `tool_not_allowed: plan mode: only read-only tools are available, "${tool}" is not (an MCP tool counts as read-only only when a server you configured yourself marks it so)`,
      ),
    );
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return done(decision('deny', 'schema', `invalid input for ${tool}: the arguments must be an object`));
  const tooBig = inputLimitProblem(input);
  if (tooBig) return done(decision('deny', 'schema', `invalid input for ${tool}: ${tooBig}`));
  if (hook?.decision === 'deny') return done(decision('deny', 'hook', hook.reason, hook.hooks));
  const trusted = state.trusted;
  const loaded = trusted && state.projectRulesEnabled !== false;
  const filter = { excludeSources: loaded ? new Set<never>() : UNTRUSTED_ALLOW_EXCLUDED };
  let answer: Decision | null = null;
  for (const behavior of ['deny', 'ask'] as const) {
    const hit = state.rules.matchMcp(parsed.server, parsed.tool, behavior);
    if (hit) {
      answer = ruleDecision(behavior, hit, tool);
      break;
    }
  }
  if (answer === null) {
    const allow = state.rules.matchMcp(parsed.server, parsed.tool, 'allow', filter);
    const sources = allow ? [allow.source] : hook?.decision === 'allow' ? hook.sources : null;
    const allowed = allow
      ? ruleDecision('allow', allow, tool)
      : hook?.decision === 'allow'
        ? decision('allow', 'hook', hook.reason, hook.hooks)
        : null;
    if (allowed && sources) {
      // The trust cap: in an untrusted project only session, CLI or policy allows let a command through.
      answer =
        trusted || category === 'read' || sources.every((s) => TRUST_EXEMPT_SOURCES.has(s))
          ? allowed
          : decision(
              'ask',
              'trust',
              `${NOT_TRUSTED}: ${allowed.rule ?? 'a rule'} would allow this, but only session, CLI or policy rules apply to writes and commands here`,
              allowed.rule,
            );
    }
  }
  if (answer === null && !trusted && category !== 'read')
    answer = decision('ask', 'trust', `${NOT_TRUSTED}: MCP tools ask until you trust it`);
  if (answer === null) {
    const kind = modeTableKind(state.mode, category);
    const what = category === 'read' ? 'a read-only MCP tool' : 'an MCP tool';
    answer = decision(
      kind,
      'mode',
      `${state.mode} mode: ${what} ${kind === 'allow' ? 'is allowed' : 'asks'} when no rule decides`,
    );
  }
  const capped = capUnknownSettings(answer, state);
  if (hook?.decision === 'ask' && capped.decision !== 'deny')
    return done(decision('ask', 'hook', hook.reason, hook.hooks));
  return done(capped);
}
