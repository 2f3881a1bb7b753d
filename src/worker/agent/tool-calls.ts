import type { AgentEvent, CallPosition } from '../../shared/agent-events';
import type { ToolResultBlock, ToolUseBlock } from '../../shared/conversation';
import type { AgentMode, SandboxKind } from '../../shared/permission';
import { isSystemTool } from '../../shared/skills-contract';
import type { ToolSafety } from '../../shared/tools';
import { CancelledError } from '../providers/errors';
import type { ToolContext, ToolPreview, ToolRegistry, ToolResult } from '../tools/types';
import type { ToolGate } from './tool-gate';
import type { AfterToolCall, BeforeToolCall, ToolCallVerdict } from './types';

export interface ToolCallsContext {
  registry: ToolRegistry;
  ctx: ToolContext;
  agentMode: AgentMode;
  /** The execution gate on names (agent mode, the run's allow-list, the active skills). */
  gate: ToolGate;
  /** Runs a system tool (load_skill, task): the agent loop's own, never the registry's. */
  runSystemTool?: (call: ToolUseBlock) => Promise<ToolResult>;
  beforeToolCall: BeforeToolCall;
  afterToolCall?: AfterToolCall;
  emit: (event: AgentEvent) => void;
  signal: AbortSignal;
  turn: number;
}

/**
 * Runs one turn's tool calls: consecutive read-only calls together (in parallel), every write or command alone and
 * in order. Each call: preview (writes) -> permission check -> execution gate -> run. Results come back in the
 * model's order; nothing here throws: a failure is an `is_error` result.
 */
export async function runToolCalls(calls: ToolUseBlock[], context: ToolCallsContext): Promise<ToolResultBlock[]> {
  const results: ToolResultBlock[] = [];
  const positions = new Map(calls.map((call, i) => [call, { index: i + 1, count: calls.length }]));
  for (const batch of batchBySafety(calls, context.registry)) {
    results.push(...(await Promise.all(batch.map((call) => runOneCall(call, context, positions.get(call))))));
  }
  return results;
}

function batchBySafety(calls: ToolUseBlock[], registry: ToolRegistry): ToolUseBlock[][] {
  const batches: ToolUseBlock[][] = [];
  let reads: ToolUseBlock[] = [];
  for (const call of calls) {
    // A system tool runs alone, in order: the calls after a load_skill are judged under its narrowing.
    if (registry.safety(call.name) === 'readOnly' && !isSystemTool(call.name)) {
      reads.push(call);
      continue;
    }
    if (reads.length) batches.push(reads);
    reads = [];
    batches.push([call]);
  }
  if (reads.length) batches.push(reads);
  return batches;
}

async function runOneCall(
  call: ToolUseBlock,
  c: ToolCallsContext,
  position: CallPosition | undefined,
): Promise<ToolResultBlock> {
  const started = Date.now();
  const safety = safetyOf(call.name, c.registry);
  const finish = (
    content: string,
    isError: boolean,
    ran: boolean,
    exitCode?: number | null,
    terminal?: string,
  ): ToolResultBlock => {
    c.emit({
      type: 'tool_call_finished',
      id: call.id,
      ran,
      isError,
      content,
      ...(exitCode !== undefined ? { exitCode } : {}),
      ...(terminal !== undefined ? { terminal } : {}),
      durationMs: Date.now() - started,
    });
    return { type: 'tool_result', tool_use_id: call.id, content, is_error: isError };
  };

  if (call.inputError !== undefined) {
    c.emit({ type: 'tool_call_started', turn: c.turn, id: call.id, name: call.name, input: call.input, safety });
    const reason = `${call.inputError}. Send the call again with its arguments as one valid JSON object.`;
    c.emit({ type: 'tool_call_decided', id: call.id, allow: false, source: 'schema', reason, rule: null });
    return finish(`denied by schema: ${reason}`, true, false);
  }
  if (c.signal.aborted) return cancelledBeforeRun(call, c, safety, finish);

  const preview = safety === 'write' ? await safePreview(call, c) : undefined;
  c.emit({
    type: 'tool_call_started',
    turn: c.turn,
    id: call.id,
    name: call.name,
    input: call.input,
    safety,
    ...(preview ? { preview } : {}),
  });

  let verdict: ToolCallVerdict;
  try {
    verdict = await raceAbort(
      c.beforeToolCall({
        id: call.id,
        name: call.name,
        input: call.input,
        ...(preview ? { preview } : {}),
        ...(position ? { position } : {}),
      }),
      c.signal,
    );
  } catch (err) {
    if (err instanceof CancelledError)
      verdict = { allow: false, source: 'cancelled', reason: 'the run was cancelled before the call was decided' };
    else
      verdict = {
        allow: false,
        source: 'internal',
        reason: `the permission check failed, so the call was not run: ${messageOf(err)}`,
      };
  }
  // One decision event per call: main's gate emitted it for the calls it decided; the rest are ours to report.
  if (!verdict.announced) {
    c.emit({
      type: 'tool_call_decided',
      id: call.id,
      allow: verdict.allow,
      source: verdict.source ?? 'permission',
      reason: verdict.reason ?? 'allowed',
      rule: verdict.rule ?? null,
    });
  }
  if (!verdict.allow) return finish(describeDenial(verdict), true, false);

  // The execution gate, before the registry's own: whatever was allowed or approved, plan mode runs read-only tools
  // only, and a tool outside the run's allow-list or the active skill's allowed tools is refused.
  const refusal = c.gate.refusal(call.name, safety);
  if (refusal !== null) return finish(refusal, true, false);
  if (c.signal.aborted) return finish('cancelled: the run was cancelled before the tool ran', true, false);

  const result = isSystemTool(call.name) ? await safeSystem(call, c) : await safeExecute(call, c, verdict.sandbox);
  const feedback = await safeAfter(call, result, c);
  // The hooks' feedback is part of the result: the person sees what the model gets.
  const content = feedback ? `${result.content}\n\n<hook-feedback>\n${feedback}\n</hook-feedback>` : result.content;
  return finish(content, result.isError, true, result.exitCode, result.terminal);
}

/** PostToolUse hooks (main's): their feedback for the model, or '' (a failure to ask is not the tool's failure). */
async function safeAfter(call: ToolUseBlock, result: ToolResult, c: ToolCallsContext): Promise<string> {
  if (!c.afterToolCall || c.signal.aborted) return '';
  try {
    return await c.afterToolCall(
      { id: call.id, name: call.name, input: call.input },
      { content: result.content, isError: result.isError },
    );
  } catch (err) {
    return `(the PostToolUse hooks could not run: ${messageOf(err)})`;
  }
}

/** `denied by user rule Bash(git push:*): <reason>` and, where given, what would be allowed instead. */
function describeDenial(verdict: Extract<ToolCallVerdict, { allow: false }>): string {
  const who = verdict.rule ? `${verdict.source} rule ${verdict.rule}` : verdict.source;
  const lines = [`denied by ${who}: ${verdict.reason}`];
  if (verdict.alternative) lines.push(`Allowed instead: ${verdict.alternative}`);
  return lines.join('\n');
}

function cancelledBeforeRun(
  call: ToolUseBlock,
  c: ToolCallsContext,
  safety: ToolSafety | null,
  finish: (content: string, isError: boolean, ran: boolean) => ToolResultBlock,
): ToolResultBlock {
  c.emit({ type: 'tool_call_started', turn: c.turn, id: call.id, name: call.name, input: call.input, safety });
  return finish('cancelled: the run was cancelled before the tool ran', true, false);
}

async function safePreview(call: ToolUseBlock, c: ToolCallsContext): Promise<ToolPreview | undefined> {
  try {
    return await c.registry.preview(call.name, call.input, c.ctx);
  } catch {
    // No preview is not a reason to fail the call: the approval shows the input instead.
    return undefined;
  }
}

async function safeExecute(call: ToolUseBlock, c: ToolCallsContext, sandbox?: SandboxKind): Promise<ToolResult> {
  const signal = c.ctx.signal === c.signal ? c.signal : AbortSignal.any([c.ctx.signal, c.signal]);
  const ctx: ToolContext = {
    ...c.ctx,
    ...(sandbox ? { sandbox } : {}),
    signal,
    onOutput: (chunk) => {
      c.emit({ type: 'tool_call_output', id: call.id, chunk });
      c.ctx.onOutput?.(chunk);
    },
  };
  try {
    const names = c.registry.definitions(c.agentMode).map((d) => ({ name: d.name, safety: c.registry.safety(d.name) }));
    return await c.registry.execute(call.name, call.input, ctx, {
      agentMode: c.agentMode,
      allowList: c.gate.allowed(names),
    });
  } catch (err) {
    return { content: `the tool failed: ${messageOf(err)}`, isError: true };
  }
}

/** A system tool counts as read-only (it changes only what the run may do, or starts a sub-agent judged call by call). */
export function safetyOf(name: string, registry: ToolRegistry): ToolSafety | null {
  return isSystemTool(name) ? 'readOnly' : registry.safety(name);
}

async function safeSystem(call: ToolUseBlock, c: ToolCallsContext): Promise<ToolResult> {
  if (!c.runSystemTool) return { content: `unknown_tool: ${call.name} is not available in this run`, isError: true };
  try {
    return await c.runSystemTool(call);
  } catch (err) {
    return { content: `the tool failed: ${messageOf(err)}`, isError: true };
  }
}

function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new CancelledError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new CancelledError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
