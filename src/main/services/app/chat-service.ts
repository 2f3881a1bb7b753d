import type { McpServerRunStatus } from '../../../shared/mcp-contract';
import type { ApiEvent } from '../../../shared/api';
import type { ApprovalChoice } from '../../../shared/approval-contract';
import type { ApprovalRequestEvent, ChatState, ResumedSession, SessionSummary } from '../../../shared/chat-contract';
import { GatehouseError } from '../../../shared/errors';
import type { AgentMode } from '../../../shared/permission';
import { AgentSession } from '../agent-runs/agent-session';
import type { ModelConfig } from '../agent-runs/model-config';
import type { ApprovalAnswer, Approver, SessionEvent } from '../agent-runs/types';
import type { TrustOracle } from '../../core/permission/trust-oracle';
import { SessionStore } from '../../core/session/session-store';
import type { WorkerHost } from '../../core/worker-host-types';
import { toApprovalAnswer, toApprovalEvent } from './chat-approval';
import { EventCoalescer } from './event-coalescer';
import type { SessionRules } from './rules-handlers';
import { currentModelConfig, hasModelKey } from './chat-model-config';
import { SessionMode } from './session-mode';

export interface ChatServiceOptions {
  host: WorkerHost;
  configDir: string;
  /** The server's environment: ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL / ANTHROPIC_MODEL (never sent to the page). */
  env: NodeJS.ProcessEnv;
  trust: TrustOracle;
  project: () => string | null;
  emit: (event: ApiEvent) => void;
  /** Whether any page is there to answer an approval. */
  hasListeners: () => boolean;
  /** The desktop's encrypted key store (see secret-store.ts); absent: the environment and settings.yaml only. */
  storedKey?: () => string | null;
  /** Resolves once `storedKey` is current (the desktop store decrypts asynchronously at start-up). */
  storedKeyReady?: () => Promise<void>;
}

interface PendingApproval {
  event: ApprovalRequestEvent;
  finish(answer: ApprovalAnswer, reason: string): void;
}

/**
 * The app's chat: one AgentSession on the app's worker for the open project, opened on the first message and
 * closed when another project opens. Approvals wait for the page's answer; no page, a cancel or a dead worker: deny.
 */
export class ChatService {
  private session: AgentSession | null = null;
  private runningRunId: string | null = null;
  private busy = false;
  /** Settles once the running message has ended and its end is recorded; null while none runs. */
  private runEnded: Promise<void> | null = null;
  /** `stopRun` came while the message was still opening its session: it does not start. */
  private stopBeforeStart = false;
  private readonly pending = new Map<string, PendingApproval>();
  /** Every event of the chat goes out through here, streamed text joined per frame (event-coalescer.ts). */
  private readonly events = new EventCoalescer((event) => this.options.emit(event));
  /** The model config read for the latest message (a key or model saved in Settings applies to the next one). */
  private liveModel: ModelConfig | null = null;
  /** The session's permission mode (the composer's selector), asked before every call. */
  readonly modes: SessionMode;
  /** The open session's "allow for this session" rules, for the rules editor (none when no session is open there). */
  readonly sessionRules: SessionRules = {
    list: (project) => (this.session?.projectRoot === project ? this.session.sessionRules() : []),
    remove: (project, behavior, rule) =>
      this.session?.projectRoot === project && this.session.removeSessionRule(behavior, rule),
  };

  /** The open session's MCP servers as its last prompt found them, and when (none when no session is open there). */
  mcpFound(project: string): { servers: McpServerRunStatus[]; at: string | null } {
    return this.session?.projectRoot === project ? this.session.mcpFound : { servers: [], at: null };
  }

  constructor(private readonly options: ChatServiceOptions) {
    const { configDir, env, trust, project, emit } = options;
    this.modes = new SessionMode({ configDir, env, trust, project, emit });
  }

  /** Resolves once the key store has been read, so `state().hasModelKey` and the next message see a stored key. */
  async keyReady(): Promise<void> {
    await this.options.storedKeyReady?.();
  }

  async state(): Promise<ChatState> {
    return {
      project: this.options.project(),
      sessionId: this.session?.id ?? null,
      runningRunId: this.runningRunId,
      pending: [...this.pending.values()].map((p) => p.event),
      hasModelKey: await hasModelKey(this.options),
      messages: this.session?.conversation ?? [],
      decisions: this.session?.decisions ?? [],
      hookRuns: this.session?.hookRuns ?? [],
      subagentEvents: this.session?.subagentEvents ?? [],
      prompts: this.session?.prompts ?? [],
    };
  }

  /** The open session's id and its running run's (no disk access). */
  activity(): { sessionId: string | null; runningRunId: string | null } {
    return { sessionId: this.session?.id ?? null, runningRunId: this.runningRunId };
  }

  async listSessions(): Promise<SessionSummary[]> {
    const project = this.options.project();
    if (!project) return [];
    return (await new SessionStore({ configDir: this.options.configDir }).list())
      .filter((s) => s.projectRoot === project)
      .map(({ id, createdAt, updatedAt, prompts, lastPrompt, firstPrompt, lastStatus, usage }) => ({
        id,
        createdAt,
        updatedAt,
        prompts,
        lastPrompt: lastPrompt && lastPrompt.slice(0, 300),
        firstPrompt: firstPrompt && firstPrompt.slice(0, 300),
        lastStatus,
        usage,
      }));
  }

  /** Continues an earlier session of the open project (not while a message runs). */
  async resume(id: string): Promise<ResumedSession> {
    const session = await this.exclusively(async () => {
      await this.endSession();
      return this.openSession(id);
    });
    return {
      sessionId: session.id,
      messages: session.conversation,
      decisions: session.decisions,
      hookRuns: session.hookRuns,
      subagentEvents: session.subagentEvents,
      prompts: session.prompts,
    };
  }

  /** The open session (null: none), for a look that changes nothing. */
  get openSessionNow(): AgentSession | null {
    return this.session;
  }

  /** Work on the open session that must not overlap a message (a rewind): refused while one runs or starts. */
  whileIdle<T>(work: (session: AgentSession | null) => Promise<T>): Promise<T> {
    return this.exclusively(() => work(this.session));
  }

  /** Whether a message is running: from `send` until its end is recorded in the transcript. */
  isRunning(): boolean {
    return this.runEnded !== null;
  }

  /**
   * Cancels the running message and resolves once its end is recorded: the transcript says cancelled and keeps every
   * tool call that finished (the shell waits for this before it quits). Resolves at once when none runs.
   */
  async stopRun(): Promise<void> {
    const ended = this.runEnded;
    if (!ended) return;
    this.stopBeforeStart = true;
    await this.cancel();
    await ended;
  }

  /** Starts a run and answers as soon as it has an id; the rest arrives as events. */
  async send(text: string, agentMode?: AgentMode): Promise<{ runId: string; sessionId: string }> {
    if (this.busy)
      throw new GatehouseError('BAD_REQUEST', 'the agent is still working on the last message: wait or cancel it');
    this.busy = true;
    let ended: () => void = () => undefined;
    this.runEnded = new Promise<void>((resolve) => (ended = resolve));
    const finished = (): void => {
      this.busy = false;
      this.runningRunId = null;
      this.runEnded = null;
      this.stopBeforeStart = false;
      ended();
    };
    let session: AgentSession;
    try {
      session = await this.openSession();
      // Read again for every message: a key or model saved on the Settings page since is used now.
      this.liveModel = await currentModelConfig(this.options);
      if (this.stopBeforeStart) throw new GatehouseError('BAD_REQUEST', 'the message was stopped before it started');
    } catch (err) {
      finished();
      throw err;
    }
    let started: (runId: string) => void = () => undefined;
    const firstEvent = new Promise<string>((resolve) => (started = resolve));
    const onEvent = (event: SessionEvent): void => {
      this.runningRunId ??= event.runId;
      started(event.runId);
      this.forward(event);
    };
    const done = session
      .prompt(text, { ...(agentMode ? { agentMode } : {}), onEvent })
      .then((result) => {
        this.events.push({ type: 'runFinished', ...result });
        return result.runId;
      })
      .finally(finished);
    const runId = await Promise.race([firstEvent, done]);
    return { runId, sessionId: session.id };
  }

  async cancel(): Promise<boolean> {
    return (await this.session?.cancel()) ?? false;
  }

  /** The page's answer to a waiting approval; false when none with this id is waiting (answered elsewhere). */
  answer(requestId: string, decision: ApprovalChoice, note?: string, rule?: string): boolean {
    const pending = this.pending.get(requestId);
    if (!pending) return false;
    pending.finish(toApprovalAnswer(decision, note, rule), `answered: ${decision}`);
    return true;
  }

  /** Nobody is left to answer (the last page closed): every waiting approval is denied. */
  denyPending(reason: string): void {
    for (const p of [...this.pending.values()]) p.finish({ kind: 'deny' }, reason);
  }

  /** Another project opened, or the page asked for a new session: the session (and its run) ends. */
  async endSession(): Promise<void> {
    const session = this.session;
    this.session = null;
    await this.modes.reset();
    if (session) await session.close({ stopWorker: false });
  }

  private readonly approve: Approver = (request, signal) =>
    new Promise<ApprovalAnswer>((resolve) => {
      const event = toApprovalEvent(request);
      const finish = (answer: ApprovalAnswer, reason: string): void => {
        if (!this.pending.delete(request.requestId)) return;
        signal.removeEventListener('abort', onAbort);
        this.events.push({ type: 'approvalClosed', requestId: request.requestId, reason });
        resolve(answer);
      };
      const onAbort = (): void =>
        finish({ kind: 'deny' }, 'the run stopped before an answer (cancelled, or the worker died)');
      this.pending.set(request.requestId, { event, finish });
      signal.addEventListener('abort', onAbort, { once: true });
      this.events.push(event);
      if (signal.aborted) onAbort();
      else if (!this.options.hasListeners()) finish({ kind: 'deny' }, 'no page is open to answer');
    });

  private forward(event: SessionEvent): void {
    this.events.push({ type: 'agent', runId: event.runId, event: event.event });
  }

  private async exclusively<T>(work: () => Promise<T>): Promise<T> {
    if (this.busy)
      throw new GatehouseError('BAD_REQUEST', 'the agent is still working on the last message: wait or cancel it');
    this.busy = true;
    try {
      return await work();
    } finally {
      this.busy = false;
    }
  }

  private async openSession(resume?: string): Promise<AgentSession> {
    await this.keyReady();
    const project = this.options.project();
    if (!project) throw new GatehouseError('BAD_REQUEST', 'open a project folder before chatting');
    if (!resume && this.session && this.session.projectRoot === project) return this.session;
    if (this.session) await this.endSession();
    const { env, host, configDir, trust } = this.options;
    // The user's own settings only (never the project's); a malformed `model:` block is named in the error.
    const config = (this.liveModel = await currentModelConfig(this.options));
    this.session = await AgentSession.open({
      host,
      configDir,
      env,
      project,
      model: config.model,
      provider: config.provider,
      approve: this.approve,
      trust,
      modelConfig: () => this.liveModel ?? undefined,
      sessionMode: this.modes.forCall,
      ...(resume ? { resume } : {}),
    });
    return this.session;
  }
}
