import type { AgentEvent } from '../../shared/agent-events';
import type {
  ContentBlock,
  ConversationMessage,
  TokenUsage,
  ToolResultBlock,
  ToolUseBlock,
} from '../../shared/conversation';
import { toRpcError } from '../../shared/errors';
import { CancelledError, isCancelledError } from '../providers/errors';
import { trimToolOutputs } from './context-window';
import { PLAN_REMINDER, needsPlanReminder, systemPrompt, taskMessage } from './prompts';
import { LOAD_SKILL } from '../../shared/skills-contract';
import { startSubagent } from './subagent';
import { loadSkill, skillsPrompt, systemToolDefinitions, systemToolsOf } from './system-tools';
import { ToolGate } from './tool-gate';
import { runToolCalls, safetyOf } from './tool-calls';
import type { AgentRunResult } from '../../shared/worker-protocol';
import type { RunAgentOptions } from './types';

export type { BeforeToolCall, RunAgentOptions, ToolCallRequest } from './types';

const DEFAULT_MAX_TOKENS = 8192;
const DEFAULT_CONTEXT_LIMIT_TOKENS = 200_000;

/**
 * The agent loop: ask the model, run the tool calls it makes (each one checked by `beforeToolCall`, i.e. main's
 * permission engine), feed the results back, until the model answers without a tool call, the max-turns guard
 * stops it, it is cancelled, or the model API fails. It never throws: the outcome is the returned status (and the
 * last event); the conversation it returns is always valid to resume (every tool_use has its tool_result).
 */
export async function runAgent(options: RunAgentOptions): Promise<AgentRunResult> {
  const { provider, registry, agentMode, signal } = options;
  const emit = safeEmitter(options.onEvent);
  const conversation: ConversationMessage[] = [...(options.history ?? [])];
  // A session resumed after a crash may end with calls that never got their result: answer them first.
  closeDanglingToolUses(conversation, 'not run: the session was interrupted before this call completed');
  const firstTurn: ContentBlock[] = [{ type: 'text', text: taskMessage(agentMode, options.task, options.plan) }];
  if (agentMode === 'plan') firstTurn.push({ type: 'text', text: PLAN_REMINDER });
  const last = conversation[conversation.length - 1];
  // Consecutive user turns are merged into one, so the tool results stay right after their calls.
  if (last?.role === 'user')
    conversation[conversation.length - 1] = { role: 'user', content: [...last.content, ...firstTurn] };
  else conversation.push({ role: 'user', content: firstTurn });

  const skills = options.skills ?? [];
  const subagents = options.subagents ?? [];
  // One gate: what the model is shown each turn and what may run (agent mode, allow-list, active skills).
  const gate = new ToolGate(agentMode, options.allowList, systemToolsOf(skills, subagents));
  const extra = [options.systemExtra, skillsPrompt(skills)].filter(Boolean).join('\n\n');
  const system = systemPrompt(agentMode, options.ctx.projectRoot, extra || undefined);
  const allTools = [...registry.definitions(agentMode), ...systemToolDefinitions(skills, subagents)];
  const visibleTools = () => allTools.filter((tool) => gate.allows(tool.name, safetyOf(tool.name, registry)));
  const tools = visibleTools();
  const fixedChars = system.length + JSON.stringify(tools).length;
  const usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
  let turns = 0;
  let stopHookActive = false;

  const result = (status: AgentRunResult['status'], extra: Partial<AgentRunResult> = {}): AgentRunResult => ({
    status,
    conversation,
    usage: { ...usage },
    turns,
    finalText: lastAssistantText(conversation),
    ...extra,
  });

  try {
    for (;;) {
      if (signal.aborted) throw new CancelledError();
      turns++;
      emit({ type: 'turn_started', turn: turns });
      const trimmed = trimToolOutputs(conversation, {
        limitTokens: options.contextLimitTokens ?? DEFAULT_CONTEXT_LIMIT_TOKENS,
        thresholdRatio: options.contextThresholdRatio,
        fixedChars,
      });
      if (trimmed.trimmedResults > 0) {
        conversation.splice(0, conversation.length, ...trimmed.messages);
        emit({
          type: 'context_trimmed',
          turn: turns,
          trimmedResults: trimmed.trimmedResults,
          trimmedChars: trimmed.trimmedChars,
        });
      }

      const turn = turns;
      const response = await provider.stream(
        {
          system,
          messages: conversation,
          tools: visibleTools(),
          maxTokens: options.maxTokens ?? DEFAULT_MAX_TOKENS,
          model: options.model ?? provider.defaultModel,
        },
        { onText: (text) => emit({ type: 'text_delta', turn, text }) },
        signal,
      );
      usage.inputTokens += response.usage.inputTokens;
      usage.outputTokens += response.usage.outputTokens;
      emit({ type: 'turn_usage', turn, stopReason: response.stopReason, usage: response.usage, total: { ...usage } });

      const content = response.content.filter((block) => block.type !== 'text' || block.text !== '');
      if (content.length > 0) conversation.push({ role: 'assistant', content });
      const calls = content.filter((block): block is ToolUseBlock => block.type === 'tool_use');
      if (calls.length === 0 && content.length > 0 && turns < options.maxTurns) {
        // Stop hooks may keep the run going: their reason is the next turn.
        const stop = options.onStop ? await options.onStop(stopHookActive).catch(() => null) : null;
        if (stop?.blocked && stop.feedback && !signal.aborted) {
          stopHookActive = true;
          conversation.push({
            role: 'user',
            content: [{ type: 'text', text: `<stop-hook-feedback>\n${stop.feedback}\n</stop-hook-feedback>` }],
          });
          continue;
        }
      }
      if (calls.length === 0) {
        const cut = response.stopReason === 'max_tokens' ? ' (the answer was cut at the output token limit)' : '';
        emit({
          type: 'done',
          status: 'completed',
          turns,
          usage: { ...usage },
          message: `finished after ${turns} turn${turns === 1 ? '' : 's'}${cut}`,
        });
        return result('completed');
      }
      if (turns >= options.maxTurns) {
        conversation.push({
          role: 'user',
          content: calls.map((call) =>
            notRun(call, `not run: the run reached its limit of ${options.maxTurns} turns (max-turns guard)`),
          ),
        });
        const message = `stopped by the max-turns guard after ${turns} turns; ${calls.length} pending tool call${calls.length === 1 ? ' was' : 's were'} not run`;
        emit({ type: 'done', status: 'max_turns', turns, usage: { ...usage }, message });
        return result('max_turns');
      }

      const results = await runToolCalls(calls, {
        registry,
        ctx: options.ctx,
        agentMode,
        gate,
        runSystemTool: async (call) => {
          if (call.name !== LOAD_SKILL) return startSubagent(runAgent, options, gate, call, emit);
          const loaded = loadSkill(call.input, skills, gate);
          if (!loaded.isError) {
            const skill = skills.find((s) => s.name === (call.input as { name: string }).name)!;
            emit({
              type: 'skill_loaded',
              id: call.id,
              name: skill.name,
              ...(skill.allowedTools ? { allowedTools: [...skill.allowedTools] } : {}),
            });
          }
          return loaded;
        },
        beforeToolCall: options.beforeToolCall,
        ...(options.afterToolCall ? { afterToolCall: options.afterToolCall } : {}),
        emit,
        signal,
        turn,
      });
      const next: ContentBlock[] = [...results];
      if (agentMode === 'plan' && needsPlanReminder(turns + 1)) next.push({ type: 'text', text: PLAN_REMINDER });
      conversation.push({ role: 'user', content: next });
    }
  } catch (err) {
    closeDanglingToolUses(conversation, 'not run: the run was cancelled or failed first');
    if (isCancelledError(err) || signal.aborted) {
      emit({ type: 'cancelled', turns, usage: { ...usage }, message: 'cancelled' });
      return result('cancelled');
    }
    const error = toRpcError(err);
    emit({ type: 'error', code: error.code, message: error.message, turns, usage: { ...usage } });
    return result('error', { error });
  }
}

function notRun(call: ToolUseBlock, why: string): ToolResultBlock {
  return { type: 'tool_result', tool_use_id: call.id, content: why, is_error: true };
}

/** After a cancel or failure mid-turn, answers every tool_use that has no result, so the conversation stays valid. */
function closeDanglingToolUses(conversation: ConversationMessage[], why: string): void {
  const last = conversation[conversation.length - 1];
  if (!last || last.role !== 'assistant') return;
  const calls = last.content.filter((block): block is ToolUseBlock => block.type === 'tool_use');
  if (calls.length) conversation.push({ role: 'user', content: calls.map((call) => notRun(call, why)) });
}

function lastAssistantText(conversation: ConversationMessage[]): string {
  for (let i = conversation.length - 1; i >= 0; i--) {
    const message = conversation[i]!;
    if (message.role !== 'assistant') continue;
    return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
  }
  return '';
}

/** A failing listener (UI gone, port closed) must not break the run. */
function safeEmitter(onEvent: (event: AgentEvent) => void): (event: AgentEvent) => void {
  return (event) => {
    try {
      onEvent(event);
    } catch {
      // The event is lost for that listener; the run and its returned result are unaffected.
    }
  };
}
