import { MAX_TRANSCRIPT_BYTES, readRegularFile } from '../fs/read-regular-file';
import type { AgentEvent, HookRunsEvent, ToolCallDecided, ToolPreview } from '../../../shared/agent-events';
import type { PromptStart } from '../../../shared/chat-contract';
import type { ConversationMessage, TokenUsage } from '../../../shared/conversation';
import { describeZodError } from '../../../shared/validate';
import type { SessionHeader, TranscriptEntry } from './transcript-entry';
import { TranscriptEntrySchema } from './transcript-entry';
import { storedPreview } from './stored-preview';

/** A line that could not be read: reported, skipped, never fatal. */
interface TranscriptProblem {
  line: number;
  message: string;
}

export interface LoadedTranscript {
  header: SessionHeader | null;
  entries: TranscriptEntry[];
  conversation: ConversationMessage[];
  /** Each tool call's one decision, in the order they were made. */
  decisions: ToolCallDecided[];
  /** The hook runs outside the permission check (PostToolUse, SessionStart, UserPromptSubmit, Stop), in order. */
  hookRuns: HookRunsEvent[];
  /** Sub-agents' starts and ends and their calls' events (a reloaded chat nests them under their task card). */
  subagentEvents: AgentEvent[];
  /** The person's messages in the conversation: the run each started and its index (see promptStarts). */
  prompts: PromptStart[];
  usage: TokenUsage;
  problems: TranscriptProblem[];
}

/** Reads a transcript file line by line (LF only); corrupt lines are reported in `problems` and skipped. */
export async function readTranscript(file: string): Promise<LoadedTranscript> {
  // A regular file of bounded size only: a FIFO or a device in the sessions folder is refused, never waited on.
  const text = await readRegularFile(file, { maxBytes: MAX_TRANSCRIPT_BYTES, what: 'session transcripts' });
  const entries: TranscriptEntry[] = [];
  const problems: TranscriptProblem[] = [];
  text.split('\n').forEach((raw, index) => {
    if (raw.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (err) {
      problems.push({ line: index + 1, message: `not JSON: ${err instanceof Error ? err.message : String(err)}` });
      return;
    }
    const parsed = TranscriptEntrySchema.safeParse(json);
    if (!parsed.success) problems.push({ line: index + 1, message: describeZodError(parsed.error, 'entry') });
    else entries.push(parsed.data);
  });
  return {
    header: findHeader(entries),
    entries,
    conversation: rebuildConversation(entries),
    decisions: callDecisions(entries),
    hookRuns: entries.flatMap((e) => (e.type === 'event' && e.event.type === 'hook_runs' ? [e.event] : [])),
    subagentEvents: entries.flatMap((e) => (e.type === 'event' && isSubagentEvent(e.event) ? [e.event] : [])),
    prompts: promptStarts(entries),
    usage: totalUsage(entries),
    problems,
  };
}

/** A sub-agent's start or end, or an event of one of its calls. */
export function isSubagentEvent(event: AgentEvent): boolean {
  return (
    event.type === 'subagent_started' ||
    event.type === 'subagent_finished' ||
    ('agent' in event && event.agent !== undefined && event.type !== 'tool_call_decided')
  );
}

function findHeader(entries: TranscriptEntry[]): SessionHeader | null {
  for (const e of entries) if (e.type === 'session') return e;
  return null;
}

/** Each `messages` entry replaces the conversation from its `start` on (a start past the end appends). */
function rebuildConversation(entries: TranscriptEntry[]): ConversationMessage[] {
  let conversation: ConversationMessage[] = [];
  for (const e of entries) {
    if (e.type !== 'messages') continue;
    conversation = [...conversation.slice(0, e.start), ...e.messages];
  }
  return conversation;
}

/**
 * Where each run's prompt is in the conversation: the conversation's length when the prompt was written, kept only
 * when the run's messages then hold that index (a prompt a hook blocked, or one that never reached the model, has
 * none) and no later entry replaced it.
 */
export function promptStarts(entries: readonly TranscriptEntry[]): PromptStart[] {
  let length = 0;
  const pending = new Map<string, number>();
  const texts = new Map<string, string>();
  const byIndex = new Map<number, string>();
  for (const e of entries) {
    if (e.type === 'prompt') {
      pending.set(e.runId, length);
      texts.set(e.runId, e.text);
    } else if (e.type === 'messages') {
      length = Math.min(length, e.start) + e.messages.length;
      // Messages from `start` on were replaced: a prompt there is no longer where it was.
      for (const [index] of byIndex) if (index >= e.start) byIndex.delete(index);
      const at = pending.get(e.runId);
      if (at !== undefined && at >= e.start && at < length) byIndex.set(at, e.runId);
    }
  }
  return [...byIndex]
    .map(([index, runId]) => ({ runId, index, text: texts.get(runId) ?? '' }))
    .sort((a, b) => a.index - b.index);
}

/**
 * Each call's `tool_call_decided` event. A transcript written before the decision was one event has, for a call main
 * judged, a `decision` line too: when the engine asked, what it asked joins the call's event (who answered, and how,
 * is in its reason).
 */
function callDecisions(entries: TranscriptEntry[]): ToolCallDecided[] {
  const decided = new Map<string, ToolCallDecided>();
  const engineAsked = new Map<string, ToolCallDecided['asked']>();
  // Written before a decision kept its write's preview, a transcript has it on the call's started event only.
  const startedPreview = new Map<string, ToolPreview>();
  for (const e of entries) {
    if (e.type === 'event' && e.event.type === 'tool_call_decided') decided.set(e.event.id, e.event);
    else if (e.type === 'event' && e.event.type === 'tool_call_started' && e.event.preview && !e.event.agent)
      startedPreview.set(e.event.id, e.event.preview);
    else if (e.type === 'decision' && e.callId && e.engine.decision === 'ask')
      engineAsked.set(e.callId, { source: e.engine.source, reason: e.engine.reason, rule: e.engine.rule });
  }
  return [...decided.values()].map((d) => {
    const asked = d.asked ?? engineAsked.get(d.id);
    const started = d.preview || d.agent ? undefined : startedPreview.get(d.id);
    return { ...d, ...(asked ? { asked } : {}), ...(started ? { preview: storedPreview(started) } : {}) };
  });
}

function totalUsage(entries: TranscriptEntry[]): TokenUsage {
  const usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
  for (const e of entries) {
    if (e.type !== 'result') continue;
    usage.inputTokens += e.usage.inputTokens;
    usage.outputTokens += e.usage.outputTokens;
  }
  return usage;
}
