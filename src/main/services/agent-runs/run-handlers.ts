import type { AutoRunStats } from '../../../shared/agent-events';
import type { Decision, PermissionMode } from '../../../shared/permission';
import type { PermissionRequest, ReadableRequest, ReadableResult } from '../../../shared/worker-protocol';
import {
  AGENT_CHECKPOINT,
  AGENT_EVENT,
  AgentCheckpointDataSchema,
  AgentEventDataSchema,
} from '../../../shared/worker-protocol';
import { withVerdict } from '../../core/auto/auto-mode';
import type { PermissionEngine } from '../../core/permission/engine';
import type { TranscriptWriter } from '../../core/session/transcript-writer';
import { storedPreview } from '../../core/session/stored-preview';
import { decideCall, type GateRun } from '../../core/gate/decision-path';
import { decisionEvent } from './permission-gate';
import { hideAll, judgeReadable } from './readable-files';
import { isWorkerDuplicate } from './session-record';
import type { SessionRecord } from './session-record';
import type { Approver, SessionEvent } from './types';

/** A session's prompt while it runs: what main's gate and the session's record need of it. */
export interface ActiveRun extends GateRun {
  abort: AbortController;
  emit: (event: SessionEvent) => void;
  /**
   * The calls main's gate judges or judged in this run, by call id: main emits their one decision event, so the
   * worker's own for them (a cancel while main still decides) is dropped. `allow`: main's final answer, once known.
   */
  judged: Map<string, { allow: boolean | null }>;
  /** Auto mode: what the classifier cost in this run so far (unset: it was not asked). */
  autoStats?: AutoRunStats;
  /** Decisions still being made (waiting for a person): the run's result waits for them. */
  deciding: Set<Promise<unknown>>;
}

/**
 * What the worker asks main while a session's prompt runs, and what it reports: each call's permission (main's gate,
 * its one decision event recorded before the worker hears the answer), which found files a search may show, and the
 * run's events and conversation checkpoints. Anything for a run that is not the running one is refused or dropped.
 */
export class RunHandlers {
  constructor(
    private readonly deps: {
      active: () => ActiveRun | null;
      engine: PermissionEngine;
      approve: Approver | null;
      sessionMode?: (() => Promise<PermissionMode | undefined>) | undefined;
      record: SessionRecord;
      writer: TranscriptWriter;
      /** The run's checkpoint notes the files around each tool call that may change them (src/main/core/checkpoints). */
      tools?: { toolStarting(key: string, tool: string): Promise<void>; toolFinished(key: string): Promise<void> };
    },
  ) {}

  async permission(request: PermissionRequest, workerSignal: AbortSignal): Promise<Decision> {
    const run = this.deps.active();
    if (!run || request.runId !== run.runId) {
      return { decision: 'deny', source: 'policy', rule: null, reason: 'no prompt of this session is running' };
    }
    const callId = request.callId;
    const judged = { allow: null as boolean | null };
    if (callId) run.judged.set(callId, judged);
    const mode = await this.deps.sessionMode?.();
    const deciding = decideCall(
      this.deps.engine,
      this.deps.approve,
      { ...run, ...(mode ? { mode } : {}) },
      request,
      workerSignal,
    );
    run.deciding.add(deciding);
    try {
      const outcome = await deciding;
      judged.allow = outcome.final.decision === 'allow';
      if (outcome.classifier) run.autoStats = withVerdict(run.autoStats, outcome.classifier);
      // The call's one decision event, into the run's stream before the worker hears the answer (so before the
      // tool's output): the transcript, the shells and the page see it in order.
      // A write keeps the preview it was decided with (asked or not): the card shows it after the run and on reload.
      const preview = request.preview ? storedPreview(request.preview) : undefined;
      if (callId) this.deps.record.record(run, decisionEvent(callId, outcome, request.agent?.id, preview));
      // Before the tool runs: the files as they are now (changes until here were not the agent's).
      if (callId && judged.allow) await this.deps.tools?.toolStarting(callKey(request.agent?.id, callId), request.tool);
      return outcome.final;
    } finally {
      run.deciding.delete(deciding);
    }
  }

  /** Which files of a search result the tools leave out: judged like read_file calls of this run, not audited. */
  async readable(request: ReadableRequest): Promise<ReadableResult> {
    const run = this.deps.active();
    if (!run || request.runId !== run.runId) return hideAll(request, 'no prompt of this session is running');
    const mode = (await this.deps.sessionMode?.()) ?? run.mode;
    return judgeReadable(this.deps.engine, request, { agentMode: run.agentMode, ...(mode ? { mode } : {}) });
  }

  workerEvent(name: string, data: unknown): void {
    const run = this.deps.active();
    if (!run) return;
    if (name === AGENT_EVENT) {
      const parsed = AgentEventDataSchema.safeParse(data);
      if (!parsed.success || parsed.data.runId !== run.runId) return;
      const event = parsed.data.event;
      // A call that ended without its PostToolUse step (refused after the allow, cancelled) ends here.
      if (event.type === 'tool_call_finished') void this.deps.tools?.toolFinished(callKey(event.agent, event.id));
      // A background sub-agent's start says what its asks become (the setting is main's).
      if (event.type === 'subagent_started' && event.background)
        this.deps.record.record(run, { ...event, backgroundAsk: run.backgroundAsk ?? 'deny' });
      else if (!isWorkerDuplicate(run, event)) this.deps.record.record(run, event);
    } else if (name === AGENT_CHECKPOINT) {
      const parsed = AgentCheckpointDataSchema.safeParse(data);
      if (parsed.success && parsed.data.runId === run.runId)
        this.deps.writer.recordConversation(run.runId, parsed.data.conversation);
    }
  }
}

/** A call's key in its run: the model's call id, per agent (a sub-agent's ids are its own model's). */
function callKey(agent: string | undefined, callId: string): string {
  return `${agent ?? ''}\0${callId}`;
}
