import type { AgentEvent, HookRunsEvent, ToolCallDecided } from '../../../shared/agent-events';
import type { PromptStart } from '../../../shared/chat-contract';
import type { ConversationMessage } from '../../../shared/conversation';
import type { ChatItem, NoticeItem, SubagentInfo, ToolItem } from './chat-store';

let loads = 0;

/** A stored command result's exit code, from its last `[exit code N]` line (null when it has none). */
function exitCodeOf(content: string): number | null {
  const found = [...content.slice(-400).matchAll(/^\[exit code (\d+)\]/gm)];
  const last = found[found.length - 1];
  return last ? Number(last[1]) : null;
}

/** A line in the chat for hooks that ran outside a tool call (SessionStart, UserPromptSubmit, Stop). */
export function hookRunsNotice(event: HookRunsEvent, key: string): NoticeItem {
  return { kind: 'notice', key, tone: 'info', text: '', hooks: event.hooks };
}

/**
 * After which stored message a hook line belongs (-1: before all): prompt hooks after the prompt they ran for, Stop
 * hooks after the answer that ended the run; a blocked prompt never reached the conversation (before the next one).
 */
function slotOf(event: HookRunsEvent): number {
  const blocked = event.event === 'UserPromptSubmit' && event.hooks.some((h) => h.outcome === 'block');
  return blocked ? event.at - 1 : event.at;
}

/** A stored session as main sends it (a resumed session, or the open one after a reload). */
export interface StoredChat {
  messages: readonly ConversationMessage[];
  decisions?: readonly ToolCallDecided[] | undefined;
  hookRuns?: readonly HookRunsEvent[] | undefined;
  subagentEvents?: readonly AgentEvent[] | undefined;
  /** Where the person's messages are, with their runs ("Rewind to here" on those). */
  prompts?: readonly PromptStart[] | undefined;
}

/**
 * The stored conversation of a session as transcript items; each call's card gets its stored decision and the
 * hooks that ran after it; hooks that ran at a prompt or the end of a run are lines where they ran.
 */
export function itemsFromConversation({
  messages,
  decisions = [],
  hookRuns = [],
  subagentEvents = [],
  prompts = [],
}: StoredChat): ChatItem[] {
  const decided = new Map(decisions.map((d) => [d.id, d]));
  const promptAt = new Map(prompts.map((p) => [p.index, p]));
  const subagents = subagentRuns(subagentEvents);
  const afterCall = new Map<string, HookRunsEvent['hooks']>();
  const lines = new Map<number, HookRunsEvent[]>();
  for (const h of hookRuns) {
    if (h.id !== undefined) afterCall.set(h.id, [...(afterCall.get(h.id) ?? []), ...h.hooks]);
    else {
      const slot = Math.max(-1, Math.min(slotOf(h), messages.length - 1));
      lines.set(slot, [...(lines.get(slot) ?? []), h]);
    }
  }
  const items: ChatItem[] = [];
  const tools = new Map<string, ToolItem>();
  // Keys unique across loads: rows of another conversation never inherit this one's (measured sizes are per key).
  const prefix = `h${++loads}-`;
  let n = 0;
  const key = (): string => `${prefix}${++n}`;
  const placeLines = (slot: number): void => {
    for (const h of lines.get(slot) ?? []) items.push(hookRunsNotice(h, key()));
  };
  placeLines(-1);
  messages.forEach((message, index) => {
    // A message the person sent: shown as they wrote it (the conversation holds it as the model got it: wrapped for
    // plan mode, with a reminder or a hook's context), once, with the run it started ("Rewind to here").
    const prompt = message.role === 'user' ? promptAt.get(index) : undefined;
    if (prompt?.text !== undefined) items.push({ kind: 'user', key: key(), text: prompt.text, runId: prompt.runId });
    let runId = prompt?.text === undefined ? prompt?.runId : undefined;
    for (const block of message.content) {
      if (block.type === 'text' && prompt?.text !== undefined) continue;
      if (block.type === 'text' && block.text.trim()) {
        items.push(
          message.role === 'user'
            ? { kind: 'user', key: key(), text: block.text, ...(runId ? { runId } : {}) }
            : { kind: 'assistant', key: key(), turn: 0, text: block.text },
        );
        runId = undefined;
      } else if (block.type === 'tool_use') {
        const decision = decided.get(block.id) ?? null;
        const hooks = afterCall.get(block.id);
        const tool: ToolItem = {
          kind: 'tool',
          key: key(),
          callId: block.id,
          name: block.name,
          input: block.input,
          decision,
          output: '',
          result: null,
          earlier: true,
          ...(hooks ? { hooks } : {}),
        };
        tools.set(block.id, tool);
        items.push(tool);
        // A task call's sub-agent: its calls right under the card, as they were shown live.
        const sub = subagents.get(block.id);
        if (sub) {
          tool.subagent = sub.info;
          for (const call of sub.calls) items.push({ ...call, key: key(), decision: decided.get(call.callId) ?? null });
        }
      } else if (block.type === 'tool_result') {
        const tool = tools.get(block.tool_use_id);
        if (tool) {
          const denied = tool.decision !== null && !tool.decision.allow;
          tool.result = {
            ran: !block.is_error && !denied,
            isError: block.is_error && !denied,
            content: block.content,
            exitCode: tool.name === 'run_command' ? exitCodeOf(block.content) : null,
          };
        }
      }
    }
    placeLines(index);
  });
  return items;
}

/** The stored sub-agent events, by the task call that started each: what its card says, and its calls. */
function subagentRuns(events: readonly AgentEvent[]): Map<string, { info: SubagentInfo; calls: ToolItem[] }> {
  const runs = new Map<string, { info: SubagentInfo; calls: ToolItem[] }>();
  const byAgent = new Map<string, { info: SubagentInfo; calls: ToolItem[] }>();
  for (const e of events) {
    if (e.type === 'subagent_started') {
      const { agentId, name, background, agentMode, tools, backgroundAsk } = e;
      const run = {
        info: {
          agentId,
          name,
          background,
          agentMode,
          ...(tools ? { tools } : {}),
          ...(backgroundAsk ? { backgroundAsk } : {}),
        },
        calls: [] as ToolItem[],
      };
      runs.set(e.id, run);
      byAgent.set(agentId, run);
    } else if (e.type === 'subagent_finished') {
      const run = byAgent.get(e.agentId);
      if (run) run.info.status = e.status;
    } else if (e.type === 'tool_call_started' && e.agent) {
      const run = byAgent.get(e.agent);
      run?.calls.push({
        kind: 'tool',
        key: '',
        callId: e.id,
        name: e.name,
        input: e.input,
        decision: null,
        output: '',
        result: null,
        earlier: true,
        agent: { id: e.agent, name: run.info.name },
      });
    } else if (e.type === 'tool_call_finished' && e.agent) {
      const call = byAgent.get(e.agent)?.calls.find((c) => c.callId === e.id);
      if (call) call.result = { ran: e.ran, isError: e.isError, content: e.content, exitCode: e.exitCode ?? null };
    }
  }
  return runs;
}
