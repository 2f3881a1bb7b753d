import type { DecideOptions, Evaluation, PermissionEngine } from '../permission/engine';
import type { RuleSourceName } from '../rule-syntax/rule-types';
import type { HookVerdict } from '../permission/stage-types';
import { hooksFor } from './active-hooks';
import { CLAUDE_TOOL_NAMES, toClaudeCall } from './claude-tools';
import type { HookRun, HookRunRecord, HookRuntime } from './hook-runtime';

function quoted(command: string): string {
  const one = command.replace(/\s+/g, ' ').trim();
  return `"${one.length > 120 ? `${one.slice(0, 120)}…` : one}"`;
}

function named(run: HookRun): string {
  return `the ${run.hook.source} hook ${quoted(run.hook.command)}`;
}

function verdict(kind: HookVerdict['decision'], runs: HookRun[], say: (r: HookRun) => string): HookVerdict {
  return {
    decision: kind,
    sources: [...new Set(runs.map((r) => r.hook.source as RuleSourceName))],
    hooks: runs.map((r) => r.hook.command).join(', '),
    reason: runs.map(say).join('; '),
  };
}

const why = (r: HookRun): string => (r.response.reason ? `: ${r.response.reason}` : '');

/**
 * The PreToolUse hooks' combined answer: any deny denies; else a hook that failed (timeout, crash, malformed output)
 * makes the call ask, with the error shown; else any ask asks; else any allow allows; else no opinion.
 */
function preToolUseVerdict(runs: readonly HookRun[]): HookVerdict | null {
  const denied = runs.filter((r) => r.response.failure === null && r.response.decision === 'deny');
  if (denied.length) return verdict('deny', denied, (r) => `denied by ${named(r)}${why(r)}`);
  const failed = runs.filter((r) => r.response.failure !== null);
  if (failed.length)
    return verdict('ask', failed, (r) => `${named(r)} failed (${r.response.failure}), so a person decides`);
  const asked = runs.filter((r) => r.response.decision === 'ask');
  if (asked.length) return verdict('ask', asked, (r) => `${named(r)} asks${why(r)}`);
  const allowed = runs.filter((r) => r.response.decision === 'allow');
  if (allowed.length) return verdict('allow', allowed, (r) => `allowed by ${named(r)}${why(r)}`);
  return null;
}

export interface HookedEvaluation {
  evaluation: Evaluation;
  /** The options the call was decided with, the hooks' verdict included: use them for the approval too. */
  options: DecideOptions;
  /** Every PreToolUse hook that ran for the call (which, how long, what it said). */
  runs: HookRunRecord[];
}

/** A call's PreToolUse step: the engine's word before the hooks, and what the hooks said. */
interface PreToolUse {
  /** The engine's evaluation without the hooks' say: agent mode and schema decide whether any hook runs. */
  evaluation: Evaluation;
  /** The hooks' combined verdict; null when no hook ran or none had an opinion. */
  verdict: HookVerdict | null;
  /** Every PreToolUse hook that ran for the call (which, how long, what it said). */
  runs: HookRunRecord[];
}

interface HookCallExtra {
  toolUseId?: string;
  signal?: AbortSignal;
}

/**
 * Decides a call with its PreToolUse hooks in the engine's order: agent mode and schema first (a call they refuse
 * runs no hook), then the matching hooks (trust decides which), then the engine again with their verdict.
 */
export async function evaluateWithHooks(
  engine: PermissionEngine,
  runtime: HookRuntime | null,
  call: unknown,
  options: DecideOptions = {},
  extra: HookCallExtra = {},
): Promise<HookedEvaluation> {
  const { evaluation, verdict, runs } = await runPreToolUse(engine, runtime, call, options, extra);
  if (verdict === null) return { evaluation, options, runs };
  const withHook: DecideOptions = { ...options, hook: verdict };
  return { evaluation: await engine.evaluate(call, withHook), options: withHook, runs };
}

/**
 * Runs a call's PreToolUse hooks: the engine judges the call first (agent mode and schema; a call they refuse runs
 * no hook), then the hooks that match it run (trust decides which) and their answers are combined. The engine's
 * decision with that verdict is the caller's next step (`evaluateWithHooks`, or the gate's engine stage).
 */
export async function runPreToolUse(
  engine: PermissionEngine,
  runtime: HookRuntime | null,
  call: unknown,
  options: DecideOptions,
  extra: HookCallExtra,
): Promise<PreToolUse> {
  const first = await engine.evaluate(call, options);
  const ctx = first.context;
  if (runtime !== null && first.mcp) return mcpHooks(engine, runtime, call, first, options, extra);
  const none: PreToolUse = { evaluation: first, verdict: null, runs: [] };
  if (runtime === null || ctx === null || !ctx.hooks?.length) return none;
  const hooks = hooksFor(
    ctx.hooks,
    { trusted: ctx.trusted, hooksEnabled: ctx.projectHooksEnabled ?? true },
    'PreToolUse',
    [ctx.tool, CLAUDE_TOOL_NAMES[ctx.tool]],
  );
  if (hooks.length === 0) return none;
  const runs = await runtime.run(
    'PreToolUse',
    hooks,
    { ...toClaudeCall(ctx.tool, ctx.input, ctx.projectRoot), tool_use_id: extra.toolUseId ?? '' },
    {
      permissionMode: ctx.agentMode === 'plan' ? 'plan' : ctx.mode,
      tool: ctx.tool,
      ...(extra.signal ? { signal: extra.signal } : {}),
    },
  );
  return { evaluation: first, verdict: preToolUseVerdict(runs), runs: runs.map((r) => r.record) };
}

/**
 * An MCP call (`mcp__<server>__<tool>`) with its PreToolUse hooks: matched by that name (`mcp__srv__.*`), given its
 * arguments as `tool_input`. A call the engine refused before the hooks (plan mode, malformed arguments) runs none.
 */
async function mcpHooks(
  engine: PermissionEngine,
  runtime: HookRuntime,
  call: unknown,
  first: Evaluation,
  options: DecideOptions,
  extra: HookCallExtra,
): Promise<PreToolUse> {
  const none: PreToolUse = { evaluation: first, verdict: null, runs: [] };
  if (first.decision.source === 'agent-mode' || first.decision.source === 'schema' || !first.mcp) return none;
  const state = await engine.state.current(options);
  if (!state.hooks?.length) return none;
  const name = first.mcp.name;
  const hooks = hooksFor(
    state.hooks,
    { trusted: state.trusted, hooksEnabled: state.projectHooksEnabled ?? true },
    'PreToolUse',
    [name],
  );
  if (hooks.length === 0) return none;
  const input = (call as { input?: unknown }).input ?? {};
  const runs = await runtime.run(
    'PreToolUse',
    hooks,
    { tool_name: name, tool_input: input, tool_use_id: extra.toolUseId ?? '' },
    {
      permissionMode: state.agentMode === 'plan' ? 'plan' : state.mode,
      tool: name,
      ...(extra.signal ? { signal: extra.signal } : {}),
    },
  );
  return { evaluation: first, verdict: preToolUseVerdict(runs), runs: runs.map((r) => r.record) };
}
