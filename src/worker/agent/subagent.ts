import { randomBytes } from 'node:crypto';
import type { AgentEvent } from '../../shared/agent-events';
import type { ToolUseBlock } from '../../shared/conversation';
import type { AgentMode } from '../../shared/permission';
import {
  LOAD_SKILL,
  TASK,
  TaskInputSchema,
  toolListAllows,
  type AgentLabel,
  type SubagentWire,
} from '../../shared/skills-contract';
import type { ToolResult } from '../tools/types';
import { safetyOf } from './tool-calls';
import type { ToolGate } from './tool-gate';
import type { AgentRunResult } from '../../shared/worker-protocol';
import type { RunAgentOptions } from './types';

/** A sub-agent's events that reach the session, labelled with its id (its text and turns stay inside it). */
const FORWARDED = new Set([
  'tool_call_started',
  'tool_call_decided',
  'tool_call_output',
  'tool_call_finished',
  'skill_loaded',
]);

/** A sub-agent in plan mode, or started from a run in plan mode, is in plan mode (read-only tools only). */
function subagentMode(parent: AgentMode, own: AgentMode | undefined): AgentMode {
  return parent === 'plan' || own === 'plan' ? 'plan' : (own ?? 'chat');
}

/**
 * The tools a sub-agent may use: those of its definition (every tool when it names none) that its parent may use at
 * this moment (agent mode, allow-list, active skills), never `task` (a sub-agent starts no sub-agent, so it cannot
 * widen its own tools that way). load_skill only when the definition allows it (and then skills narrow it further).
 */
function subagentTools(def: SubagentWire, parent: RunAgentOptions, gate: ToolGate): string[] {
  const names = [...parent.registry.definitions(parent.agentMode).map((d) => d.name), LOAD_SKILL];
  return names.filter(
    (name) =>
      name !== TASK &&
      (def.tools === undefined || toolListAllows(def.tools, name)) &&
      gate.allows(name, safetyOf(name, parent.registry)),
  );
}

/**
 * Runs `task`: starts the named sub-agent with its own prompt (its definition's body), tools and agent mode, in this
 * worker with the same permission engine: each of its calls goes to main labelled with the sub-agent (a foreground
 * sub-agent's asks reach the person; a background one's follow `subagents.backgroundAsk`). Its final answer is the
 * result. The parent waits for it.
 */
export async function startSubagent(
  runAgent: (options: RunAgentOptions) => Promise<AgentRunResult>,
  parent: RunAgentOptions,
  gate: ToolGate,
  call: ToolUseBlock,
  emit: (event: AgentEvent) => void,
): Promise<ToolResult> {
  const parsed = TaskInputSchema.safeParse(call.input);
  if (!parsed.success) return { content: `invalid_input: task: ${parsed.error.issues[0]?.message}`, isError: true };
  const subagents = parent.subagents ?? [];
  const def = subagents.find((s) => s.name === parsed.data.agent);
  if (!def)
    return {
      content: `unknown_agent: there is no sub-agent named ${JSON.stringify(parsed.data.agent)} (sub-agents: ${subagents.map((s) => s.name).join(', ')})`,
      isError: true,
    };
  const agentMode = subagentMode(parent.agentMode, def.agentMode);
  const tools = subagentTools(def, parent, gate);
  const label: AgentLabel = {
    id: `${def.name}-${randomBytes(4).toString('hex')}`,
    name: def.name,
    background: parsed.data.background === true,
    agentMode,
  };
  emit({
    type: 'subagent_started',
    id: call.id,
    agentId: label.id,
    name: def.name,
    background: label.background,
    agentMode,
    tools,
  });
  const result = await runAgent({
    provider: parent.provider,
    registry: parent.registry,
    ctx: parent.ctx,
    agentMode,
    task: parsed.data.prompt,
    maxTurns: parent.maxTurns,
    beforeToolCall: (request) => parent.beforeToolCall({ ...request, agent: label }),
    ...(parent.afterToolCall
      ? { afterToolCall: (request, res) => parent.afterToolCall!({ ...request, agent: label }, res) }
      : {}),
    onEvent: (event) => {
      if (FORWARDED.has(event.type)) emit({ ...event, agent: label.id } as AgentEvent);
    },
    signal: parent.signal,
    ...(parent.model !== undefined ? { model: parent.model } : {}),
    ...(parent.maxTokens !== undefined ? { maxTokens: parent.maxTokens } : {}),
    allowList: tools,
    systemExtra: `You are the sub-agent "${def.name}", started for one task; your final answer goes back to the agent that started you.\n\n${def.body}`,
    ...(tools.includes(LOAD_SKILL) ? { skills: parent.skills ?? [] } : {}),
  });
  emit({
    type: 'subagent_finished',
    id: call.id,
    agentId: label.id,
    status: result.status,
    turns: result.turns,
    usage: result.usage,
  });
  if (result.status === 'completed')
    return { content: result.finalText || '(the sub-agent gave no answer)', isError: false };
  const why = result.error ? `: ${result.error.message}` : '';
  return {
    content: `the sub-agent ${def.name} stopped (${result.status}${why})${result.finalText ? `; its last answer: ${result.finalText}` : ''}`,
    isError: true,
  };
}
