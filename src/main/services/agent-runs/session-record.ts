import type { AgentEvent, HookRunsEvent, ToolCallDecided } from '../../../shared/agent-events';
import type { PromptStart } from '../../../shared/chat-contract';
import type { HookRunsReporter } from '../../core/hooks/session-hooks';
import { isSubagentEvent } from '../../core/session/transcript-reader';
import type { LoadedTranscript } from '../../core/session/transcript-reader';
import type { TranscriptWriter } from '../../core/session/transcript-writer';
import type { SessionEvent } from './types';

/** Events too fine-grained for the transcript (the final text and tool results are in the conversation). */
const NOT_RECORDED = new Set(['text_delta', 'tool_call_output']);

/**
 * An event as the session keeps it: a write's preview only once, bounded, on its decision (the started event's is
 * the whole diff), and a command's coloured output only for the page that watched it run (the conversation holds its
 * text).
 */
function kept(event: AgentEvent): AgentEvent {
  if (event.type === 'tool_call_started' && event.preview) {
    const { preview: _preview, ...rest } = event;
    return rest;
  }
  if (event.type === 'tool_call_finished' && event.terminal !== undefined) {
    const { terminal: _terminal, ...rest } = event;
    return rest;
  }
  return event;
}

/** What a resumed session brings from its transcript. */
export type StoredRuns = Pick<LoadedTranscript, 'entries' | 'decisions' | 'hookRuns' | 'subagentEvents' | 'prompts'>;

export const NOTHING_STORED: StoredRuns = { entries: [], decisions: [], hookRuns: [], subagentEvents: [], prompts: [] };

/** What recording needs of a running prompt. */
export interface RecordingRun {
  runId: string;
  emit: (event: SessionEvent) => void;
  /** The calls main judges or judged in this run (see isWorkerDuplicate). */
  judged: Map<string, { allow: boolean | null }>;
}

/**
 * What a session keeps of its runs' events: each one in the transcript (unless too fine-grained), the decision of
 * every call (the cards' badges), the hook runs and the sub-agents' events, and out to the listeners.
 */
export class SessionRecord {
  private readonly decided = new Map<string, ToolCallDecided>();
  private readonly hookRunEvents: HookRunsEvent[];
  private readonly subagentEventList: AgentEvent[];
  private promptList: PromptStart[];

  constructor(
    private readonly writer: TranscriptWriter,
    stored: StoredRuns,
  ) {
    for (const d of stored.decisions) this.decided.set(d.id, d);
    this.hookRunEvents = [...stored.hookRuns];
    this.subagentEventList = [...stored.subagentEvents];
    this.promptList = [...stored.prompts];
  }

  /** The person's messages in the conversation and their runs (the running prompt's included). */
  get prompts(): PromptStart[] {
    return [...this.promptList];
  }

  /** A prompt starts: its message will be the conversation's next one. */
  promptStarted(runId: string, text: string): void {
    const index = this.writer.conversation.length;
    this.promptList = [...this.promptList.filter((p) => p.index < index), { runId, index, text }];
  }

  /** Its run ended: the prompt stays only if its message reached the conversation (a blocked prompt's did not). */
  promptEnded(runId: string): void {
    const length = this.writer.conversation.length;
    this.promptList = this.promptList.filter((p) => p.runId !== runId || p.index < length);
  }

  get decisions(): ToolCallDecided[] {
    return [...this.decided.values()];
  }

  get hookRuns(): HookRunsEvent[] {
    return [...this.hookRunEvents];
  }

  get subagentEvents(): AgentEvent[] {
    return [...this.subagentEventList];
  }

  /** One event of a run: the transcript (unless too fine-grained), the session's lists, the listeners. */
  record(run: RecordingRun, event: AgentEvent): void {
    const stored = kept(event);
    if (!NOT_RECORDED.has(event.type)) this.writer.append({ type: 'event', runId: run.runId, event: stored });
    if (stored.type === 'tool_call_decided') this.decided.set(stored.id, stored);
    if (stored.type === 'hook_runs') this.hookRunEvents.push(stored);
    if (isSubagentEvent(stored)) this.subagentEventList.push(stored);
    run.emit({ type: 'agent', runId: run.runId, event });
  }

  /** Records the runs of one hook event of a run like a decision: transcript, session, listeners. */
  hookReporter(run: RecordingRun): HookRunsReporter {
    return (event, hooks, callId) =>
      this.record(run, {
        type: 'hook_runs',
        event,
        ...(callId ? { id: callId } : {}),
        at: this.writer.conversation.length,
        hooks,
      });
  }
}

/**
 * The worker reports a decision only for calls main never saw (a malformed input, a failed check, a cancel before
 * main was asked). One main judges has its decision from main: the worker's is dropped, unless the worker refused a
 * call main allowed (its guard against running a command outside the sandbox without your approval).
 */
export function isWorkerDuplicate(run: RecordingRun, event: AgentEvent): boolean {
  // Only main asks the classifier: the worker can never claim it did, nor that auto mode fell back.
  if (event.type === 'auto_fallback' || event.type === 'auto_usage') return true;
  if (event.type !== 'tool_call_decided') return false;
  if (event.source === 'auto' || event.classifier !== undefined) return true;
  const judged = run.judged.get(event.id);
  return judged !== undefined && !(judged.allow === true && !event.allow);
}
