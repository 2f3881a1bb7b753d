import { create } from 'zustand';
import type { AgentEvent, AutoRunStats, HookRunWire, ToolCallDecided } from '../../../shared/agent-events';
import type { ApiEvent } from '../../../shared/api';
import type { ApprovalRequestEvent, ChatState } from '../../../shared/chat-contract';
import type { TokenUsage } from '../../../shared/conversation';
import { hookRunsNotice, itemsFromConversation, type StoredChat } from './history';
import { appendDeltas } from './chat-deltas';
import type { ChatDelta } from './chat-deltas';
import { createDeltaBatcher } from './delta-batcher';
import type { AgentMode } from '../../../shared/permission';

export interface ToolItem {
  kind: 'tool';
  key: string;
  callId: string;
  name: string;
  input: unknown;
  /** The call's one decision event (with what the engine asked and your answer, if it asked): the card's badge. */
  decision: ToolCallDecided | null;
  output: string;
  result: {
    ran: boolean;
    isError: boolean;
    content: string;
    exitCode: number | null;
    /** run_command: the output's rendered rows with their colours, for the terminal view (not in stored sessions). */
    terminal?: string;
  } | null;
  /** From a stored session (its decision, when the transcript has one, comes from there). */
  earlier?: boolean;
  /** The PostToolUse hooks that ran after the call (what they told the model). */
  hooks?: HookRunWire[];
  /** The sub-agent that made the call (shown nested under its `task` card); absent: the session's agent. */
  agent?: { id: string; name: string };
  /** A `task` call: the sub-agent it started (and how it ended, once it has). */
  subagent?: SubagentInfo;
}

/** What a `task` card shows of its sub-agent. */
export interface SubagentInfo {
  agentId: string;
  name: string;
  background: boolean;
  agentMode: AgentMode;
  tools?: string[];
  /** A background sub-agent's asks: denied, or run where only the mode asked (`subagents.backgroundAsk`). */
  backgroundAsk?: 'deny' | 'continue';
  status?: string;
}

export type ChatItem =
  | UserItem
  | { kind: 'assistant'; key: string; turn: number; text: string }
  | ToolItem
  | NoticeItem;

/** A message the person sent; `runId`: the run it started, once known ("Rewind to here" needs it). */
interface UserItem {
  kind: 'user';
  key: string;
  text: string;
  runId?: string;
}

/** A line from Gatehouse itself; a failed run's notice offers what fixes it (Settings, Retry the message). */
export interface NoticeItem {
  kind: 'notice';
  key: string;
  tone: 'info' | 'error';
  text: string;
  /** The message to send again with "Retry". */
  retry?: string;
  /** Offer "Open Settings" (the model, key or base URL may be what is wrong). */
  settings?: boolean;
  /** Hooks that ran at a prompt or at the end of a run (SessionStart, UserPromptSubmit, Stop). */
  hooks?: HookRunWire[];
}

export interface ChatStore {
  items: ChatItem[];
  running: boolean;
  runId: string | null;
  usage: TokenUsage | null;
  /** Waiting approvals, oldest first: the dialog shows the first. */
  approvals: ApprovalRequestEvent[];
  agentMode: AgentMode;
  hasModelKey: boolean;
  /** The agent mode of the run this page started (null when unknown). */
  runAgentMode: AgentMode | null;
  /** The plan a Plan-mode run just completed with: "Run this plan" is offered until the next message. */
  plan: string | null;
  /** The open session (null: the next message starts one). */
  sessionId: string | null;
  /** The skills the running prompt loaded (its tools are narrowed to theirs until the run ends). */
  activeSkills: { name: string; allowedTools?: string[] }[];
  /** Auto mode fell back to manual approval in this session: why (null: it did not). */
  autoFallback: string | null;
  /** Text to put in an empty message box (a rewound message); `n` tells one offer from the next. */
  composerDraft: { text: string; n: number } | null;
}

export const useChat = create<ChatStore>(() => ({
  items: [],
  running: false,
  runId: null,
  usage: null,
  approvals: [],
  agentMode: 'chat',
  hasModelKey: true,
  runAgentMode: null,
  plan: null,
  sessionId: null,
  activeSkills: [],
  autoFallback: null,
  composerDraft: null,
}));

/** Sub-agent ids of this page's runs, to their names (their calls' cards say which sub-agent made them). */
const subagentNames = new Map<string, string>();

let seq = 0;
export const nextKey = (): string => `k${++seq}`;

export function pushItem(item: ChatItem): void {
  flushChatDeltas();
  useChat.setState((s) => ({ items: [...s.items, item] }));
}

function updateTool(callId: string, update: (item: ToolItem) => ToolItem): void {
  useChat.setState((s) => ({
    items: s.items.map((it) => (it.kind === 'tool' && it.callId === callId ? update(it) : it)),
  }));
}

function applyAgentEvent(event: AgentEvent): void {
  switch (event.type) {
    case 'text_delta':
      applyDeltas([event]);
      return;
    case 'tool_call_started':
      pushItem({
        kind: 'tool',
        key: nextKey(),
        callId: event.id,
        name: event.name,
        input: event.input,
        decision: null,
        output: '',
        result: null,
        ...(event.agent ? { agent: { id: event.agent, name: subagentNames.get(event.agent) ?? event.agent } } : {}),
      });
      return;
    case 'subagent_started': {
      subagentNames.set(event.agentId, event.name);
      const { agentId, name, background, agentMode, tools, backgroundAsk } = event;
      const info: SubagentInfo = { agentId, name, background, agentMode, ...(tools ? { tools } : {}) };
      if (backgroundAsk) info.backgroundAsk = backgroundAsk;
      updateTool(event.id, (it) => ({ ...it, subagent: info }));
      return;
    }
    case 'subagent_finished':
      updateTool(event.id, (it) => (it.subagent ? { ...it, subagent: { ...it.subagent, status: event.status } } : it));
      return;
    case 'skill_loaded':
      if (event.agent === undefined)
        useChat.setState((s) => ({
          activeSkills: [
            ...s.activeSkills,
            { name: event.name, ...(event.allowedTools ? { allowedTools: event.allowedTools } : {}) },
          ],
        }));
      return;
    case 'tool_call_decided':
      updateTool(event.id, (it) => ({ ...it, decision: event }));
      return;
    case 'hook_runs':
      if (event.id !== undefined) {
        const hooks = event.hooks;
        updateTool(event.id, (it) => ({ ...it, hooks: [...(it.hooks ?? []), ...hooks] }));
      } else pushItem(hookRunsNotice(event, nextKey()));
      return;
    case 'tool_call_output':
      applyDeltas([event]);
      return;
    case 'tool_call_finished':
      updateTool(event.id, (it) => ({
        ...it,
        result: {
          ran: event.ran,
          isError: event.isError,
          content: event.content,
          exitCode: event.exitCode ?? null,
          ...(event.terminal !== undefined ? { terminal: event.terminal } : {}),
        },
      }));
      return;
    case 'turn_usage':
      useChat.setState({ usage: event.total });
      return;
    case 'auto_fallback':
      useChat.setState({ autoFallback: event.reason });
      pushItem({ kind: 'notice', key: nextKey(), tone: 'info', text: `Auto mode: ${event.reason}.` });
      return;
    case 'auto_usage':
      pushItem({ kind: 'notice', key: nextKey(), tone: 'info', text: autoUsageText(event.stats) });
      return;
    case 'done':
    case 'cancelled':
    case 'error':
      useChat.setState({ usage: event.usage });
      return;
    default:
      return;
  }
}

/** What auto mode's classifier cost in a run, in words. */
function autoUsageText(s: AutoRunStats): string {
  const calls = `${s.calls} call${s.calls === 1 ? '' : 's'}`;
  return `Auto mode's classifier: ${calls} (${s.allowed} allowed, ${s.blocked} blocked), ${s.inputTokens + s.outputTokens} tokens, ${(s.latencyMs / 1000).toFixed(1)} s.`;
}

type AgentApiEvent = Extract<ApiEvent, { type: 'agent' }>;

function markRunning(runId: string): void {
  useChat.setState((s) => (s.runId === runId && s.running ? s : { runId, running: true }));
}

/** Many streamed deltas in one state change: the transcript renders once for the whole batch. */
function applyDeltas(deltas: ChatDelta[], runId?: string): void {
  useChat.setState((s) => {
    const items = appendDeltas(s.items, deltas, nextKey);
    const run = runId === undefined || (s.runId === runId && s.running) ? {} : { runId, running: true };
    return items === s.items && !('runId' in run) ? s : { ...run, items };
  });
}

const isDelta = (event: ApiEvent): event is AgentApiEvent & { event: ChatDelta } =>
  event.type === 'agent' && (event.event.type === 'text_delta' || event.event.type === 'tool_call_output');

/**
 * The least time between two renders of streamed deltas. A fast stream (thousands of tokens a second) then costs a
 * render every few frames, not every frame (each render parses the growing block and lays the message out again);
 * the text still appears progressively, about twenty times a second.
 */
export const STREAM_RENDER_MS = 40;

/**
 * text_delta and tool_call_output wait for their render (in a task of its own, STREAM_RENDER_MS after the last);
 * any other event flushes them first.
 */
const batcher = createDeltaBatcher<ApiEvent>({
  isDelta,
  minIntervalMs: STREAM_RENDER_MS,
  applyDeltas(events) {
    const last = events[events.length - 1];
    applyDeltas(
      events.filter(isDelta).map((e) => e.event),
      last?.type === 'agent' ? last.runId : undefined,
    );
  },
  applyEvent: applyOneEvent,
});

/** Applies the streamed deltas still waiting for a frame (before anything else rewrites the transcript). */
export function flushChatDeltas(): void {
  batcher.flush();
}

/** Folds one of main's events into the chat (deltas batched, one render per STREAM_RENDER_MS at most, order kept). */
export function applyChatEvent(event: ApiEvent): void {
  batcher.push(event);
}

function applyOneEvent(event: ApiEvent): void {
  switch (event.type) {
    case 'agent':
      markRunning(event.runId);
      applyAgentEvent(event.event);
      return;
    case 'approvalRequest':
      useChat.setState((s) => ({
        approvals: s.approvals.some((a) => a.requestId === event.requestId) ? s.approvals : [...s.approvals, event],
      }));
      return;
    case 'approvalClosed':
      useChat.setState((s) => ({ approvals: s.approvals.filter((a) => a.requestId !== event.requestId) }));
      return;
    case 'runFinished':
      useChat.setState((s) => ({
        running: false,
        runId: null,
        usage: event.usage,
        plan:
          s.runAgentMode === 'plan' && event.status === 'completed' && event.finalText.trim() ? event.finalText : null,
        runAgentMode: null,
        activeSkills: [],
      }));
      if (event.status === 'error') pushItem(failedRunNotice(event.error?.message ?? 'unknown error'));
      else if (event.status === 'cancelled')
        pushItem({ kind: 'notice', key: nextKey(), tone: 'info', text: 'Cancelled.' });
      else if (event.status === 'max_turns')
        pushItem({ kind: 'notice', key: nextKey(), tone: 'info', text: 'Stopped: the turn limit was reached.' });
      return;
    case 'projectChanged':
      useChat.setState({
        items: [],
        running: false,
        runId: null,
        usage: null,
        approvals: [],
        plan: null,
        runAgentMode: null,
        sessionId: null,
        autoFallback: null,
        composerDraft: null,
      });
      return;
    default:
      return;
  }
}

/** The last message the person sent (what "Retry" sends again). */
function lastPrompt(): string | undefined {
  const items = useChat.getState().items;
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i];
    if (it?.kind === 'user') return it.text;
  }
  return undefined;
}

/** A failed run: what went wrong, with Retry (the same message again) and, for model problems, Settings. */
function failedRunNotice(message: string): NoticeItem {
  const retry = lastPrompt();
  const model = /model API|API key|base URL|model/i.test(message);
  return {
    kind: 'notice',
    key: nextKey(),
    tone: 'error',
    text: `The run failed: ${message}`,
    ...(retry ? { retry } : {}),
    ...(model ? { settings: true } : {}),
  };
}

/** After a (re)connection: what main says is running and waiting; a fresh page also shows the session so far. */
export function applyChatState(state: ChatState): void {
  flushChatDeltas();
  useChat.setState((s) => ({
    running: state.runningRunId !== null,
    runId: state.runningRunId,
    approvals: state.pending,
    hasModelKey: state.hasModelKey,
    sessionId: state.sessionId,
    // A fallback belongs to its session: another session starts with auto mode's classifier again.
    autoFallback: state.sessionId === s.sessionId ? s.autoFallback : null,
    items: s.items.length === 0 ? itemsFromConversation(state) : s.items,
  }));
}

/** Counts the transcripts shown by the person's own actions (resume, new session, rewind). */
let shownByAction = 0;

/** Which transcript the person's last action showed: a chat state asked for before it is stale. */
export function transcriptGeneration(): number {
  return shownByAction;
}

/** Replaces the transcript with a stored conversation, its calls' decisions and its hook runs (a resumed session). */
export function showConversation(stored: StoredChat): void {
  shownByAction++;
  flushChatDeltas();
  useChat.setState({ items: itemsFromConversation(stored), usage: null });
}

/** The run a message the person just sent started: its row can offer "Rewind to here". */
export function setUserRun(key: string, runId: string): void {
  useChat.setState((s) => ({
    items: s.items.map((it) => (it.kind === 'user' && it.key === key ? { ...it, runId } : it)),
  }));
}
