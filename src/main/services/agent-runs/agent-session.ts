import { randomUUID } from 'node:crypto';
import type { AgentEvent, HookRunsEvent, ToolCallDecided } from '../../../shared/agent-events';
import type { PromptStart } from '../../../shared/chat-contract';
import type { ConversationMessage } from '../../../shared/conversation';
import { GatehouseError, toRpcError } from '../../../shared/errors';
import { settleWithin } from '../../../shared/settle-within';
import type { AgentMode, RuleBehavior } from '../../../shared/permission';
import type { AgentRunResult, SandboxRunConfig, SandboxStatus } from '../../../shared/worker-protocol';
import type { McpServerRunStatus } from '../../../shared/mcp-contract';
import type { SessionHooks } from '../../core/hooks/session-hooks';
import type { PermissionEngine } from '../../core/permission/engine';
import { readDenyRules } from '../../core/sandbox/sandbox-gate';
import type { SettingsSnapshot } from '../../core/settings/settings-store';
import type { SessionHeader } from '../../core/session/transcript-entry';
import { TurnCheckpoints } from '../../core/checkpoints/turn-checkpoints';
import { McpRunReport } from './mcp-run-report';
import { RunHandlers, type ActiveRun } from './run-handlers';
import { SessionStore } from '../../core/session/session-store';
import type { TranscriptWriter } from '../../core/session/transcript-writer';
import type { WorkerHost } from '../../core/worker-host-types';
import { SessionContext } from './session-context';
import { NOTHING_STORED, SessionRecord, type StoredRuns } from './session-record';
import { readBackgroundAsk } from '../../core/agents/background-ask';
import { promptTexts, sessionAuto } from './session-auto';
import type { AutoModeState } from '../../core/auto/auto-mode';
import { openSessionEngine, realDir } from './session-engine';
import type { AgentSessionOptions, PromptOptions, PromptResult, SessionEvent } from './types';

const DEFAULT_MAX_TURNS = 50;
/** Thrown inside prompt() when a cancel came before the run reached the worker. */
const CANCELLED_BEFORE_START = new GatehouseError('BAD_REQUEST', 'cancelled before the run started');
/** How long closing waits for a cancelled prompt to record its end (a worker that does not answer is not waited for). */
const CLOSE_WAIT_MS = 5_000;
/** Until the worker said otherwise, commands are treated as unconfined (fail safe). */
const NOT_CHECKED: SandboxStatus = { enabled: true, available: false, reason: 'not checked yet' };

/**
 * One agent session in main, whatever the shell: a project, its permission engine, a transcript on disk and the
 * supervised worker that runs the agent. Prompts run one at a time; each continues the session's conversation.
 */
export class AgentSession {
  private active: ActiveRun | null = null;
  private readonly listeners = new Set<(event: SessionEvent) => void>();
  private readonly offEvents: () => void;
  private closed = false;
  /** Settles when the last prompt has ended (never rejects): closing lets a cancelled one finish its record. */
  private lastPrompt: Promise<void> = Promise.resolve();
  private readonly context: SessionContext;
  /** The MCP servers sent with the running prompt, and how the last run found them (tools, errors). */
  private readonly mcp: McpRunReport;
  /** The person's own messages (what auto mode's classifier is shown, with the call). */
  private readonly personMessages: string[];
  private readonly auto: AutoModeState;
  /** A checkpoint of the project's files before each prompt that may change them (src/main/core/checkpoints). */
  readonly checkpoints: TurnCheckpoints;
  private readonly record: SessionRecord;

  private constructor(
    private readonly options: AgentSessionOptions,
    private readonly engine: PermissionEngine,
    readonly header: SessionHeader,
    private readonly writer: TranscriptWriter,
    /** Lines of a resumed transcript that could not be read (skipped). */
    readonly problems: string[],
    context: SessionContext,
    private readonly hooks: SessionHooks,
    stored: StoredRuns,
  ) {
    this.context = context;
    this.mcp = new McpRunReport((names) => engine.state.setMcpReadTools(names));
    this.personMessages = promptTexts(stored.entries);
    this.auto = sessionAuto({
      configDir: options.configDir,
      projectRoot: header.projectRoot,
      provider: () => options.modelConfig?.()?.provider ?? options.provider,
      personMessages: () => this.personMessages,
      onFallback: (reason, counts) => {
        if (this.active) this.record.record(this.active, { type: 'auto_fallback', reason, ...counts });
      },
    });
    this.checkpoints = new TurnCheckpoints(options.configDir, header.projectRoot, {
      onProblem: (message) => process.stderr.write(`gatehouse: ${message}\n`),
      sessionId: () => this.id,
      running: () => this.active !== null,
    });
    this.record = new SessionRecord(writer, stored);
    const host = options.host;
    const handlers = new RunHandlers({
      active: () => this.active,
      engine,
      approve: options.approve,
      sessionMode: options.sessionMode,
      record: this.record,
      writer,
      tools: this.checkpoints,
    });
    host.handle('permission.request', (request, signal) => handlers.permission(request, signal));
    host.handle('permission.readable', async (request) => handlers.readable(request));
    host.handle('hooks.event', async (request) => {
      if (this.active?.runId !== request.runId) return { blocked: false, feedback: '' };
      const result = await this.hooks.onLoopEvent(request, this.record.hookReporter(this.active));
      // After a tool and its PostToolUse hooks, before the worker asks its model again: the files as the agent left
      // them (what changes from here until its next call is not the agent's).
      if (request.event === 'PostToolUse') await this.checkpoints.toolEnded(request.callId);
      return result;
    });
    host.handle('mcp.servers', async (report) => {
      this.mcp.report(report);
      return {};
    });
    this.offEvents = host.onEvent((name, data) => handlers.workerEvent(name, data));
  }

  /** The MCP servers of the last prompt as the worker found them (state, tools, errors), and when (ISO) or null. */
  get mcpFound(): { servers: McpServerRunStatus[]; at: string | null } {
    return { servers: this.mcp.servers, at: this.mcp.at };
  }

  static async open(options: AgentSessionOptions): Promise<AgentSession> {
    const store = new SessionStore({ configDir: options.configDir });
    let header: SessionHeader;
    let writer: TranscriptWriter;
    let problems: string[] = [];
    let stored: StoredRuns = NOTHING_STORED;
    if (options.resume) {
      const resumed = await store.resume(options.resume);
      ({ header, writer } = resumed);
      problems = resumed.transcript.problems.map((p) => `line ${p.line}: ${p.message}`);
      stored = resumed.transcript;
      const project = options.project ? await realDir(options.project) : null;
      if (project !== null && project !== header.projectRoot) {
        await writer.close();
        throw new GatehouseError(
          'BAD_REQUEST',
          `session ${header.id} belongs to ${header.projectRoot}, not ${project}`,
        );
      }
    } else {
      ({ header, writer } = await store.create({
        projectRoot: await realDir(options.project ?? '.'),
        agentMode: options.agentMode ?? 'chat',
        model: options.model,
      }));
    }
    // A resumed session keeps its agent mode unless the shell names another.
    const agentMode = options.agentMode ?? header.agentMode;
    const { engine, trust, hooks } = await openSessionEngine(options, header, writer.file, agentMode);
    const context = new SessionContext({
      configDir: options.configDir,
      env: options.env,
      projectRoot: header.projectRoot,
      additionalDirectories: options.additionalDirectories ?? [],
      engine,
      trust,
      host: options.host,
    });
    const session = new AgentSession(
      { ...options, agentMode },
      engine,
      header,
      writer,
      problems,
      context,
      hooks,
      stored,
    );
    await options.host.start();
    await session.checkSandbox();
    return session;
  }

  get id(): string {
    return this.header.id;
  }

  get projectRoot(): string {
    return this.header.projectRoot;
  }

  get host(): WorkerHost {
    return this.options.host;
  }

  get conversation(): ConversationMessage[] {
    return this.writer.conversation;
  }

  /** The one decision of each tool call of this session so far (stored runs included), in the order they were made. */
  get decisions(): ToolCallDecided[] {
    return this.record.decisions;
  }

  /** The hook runs of this session outside the permission check (stored runs included), in the order they ran. */
  /** Sub-agents' starts and ends and their calls' events, of this session so far (stored runs included). */
  get subagentEvents(): AgentEvent[] {
    return this.record.subagentEvents;
  }

  get hookRuns(): HookRunsEvent[] {
    return this.record.hookRuns;
  }

  /** The person's messages in the conversation and the runs they started ("Rewind to here" names one). */
  get prompts(): PromptStart[] {
    return this.record.prompts;
  }

  /** The rules this session's "allow for this session" answers added (the rules editor lists and removes them). */
  sessionRules(): readonly { behavior: RuleBehavior; rule: string }[] {
    return this.engine.state.sessionRules();
  }

  /** The settings as the engine reads them now (file problems and unknown keys, for a shell's warnings). */
  settingsSnapshot(): Promise<SettingsSnapshot> {
    return this.engine.state.settings.snapshot();
  }

  removeSessionRule(behavior: RuleBehavior, rule: string): boolean {
    return this.engine.state.removeSessionRule(behavior, rule);
  }

  /**
   * Whether commands run in the OS sandbox (checked at open and before every prompt), and the sandbox settings
   * that were not applied. `enabled && !available`: a persistent warning, and every command asks.
   */
  get sandboxStatus(): { status: SandboxStatus; problems: string[] } | null {
    return this.context.sandboxStatus;
  }

  /** Reads the sandbox settings and asks the worker whether its sandbox works for this project (fail safe). */
  checkSandbox(): Promise<{ config: SandboxRunConfig; status: SandboxStatus }> {
    return this.context.checkSandbox();
  }

  onEvent(listener: (event: SessionEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  prompt(text: string, options: PromptOptions = {}): Promise<PromptResult> {
    const result = this.runPrompt(text, options);
    this.lastPrompt = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  private async runPrompt(text: string, options: PromptOptions): Promise<PromptResult> {
    if (this.closed) throw new GatehouseError('BAD_REQUEST', 'the session is closed');
    if (this.active) throw new GatehouseError('BAD_REQUEST', 'a prompt is already running in this session');
    const agentMode: AgentMode = options.agentMode ?? this.options.agentMode ?? 'chat';
    const runId = randomUUID();
    const abort = new AbortController();
    const emit = (event: SessionEvent): void => {
      for (const l of [...this.listeners, ...(options.onEvent ? [options.onEvent] : [])]) safely(() => l(event));
    };
    this.active = {
      runId,
      agentMode,
      signal: abort.signal,
      abort,
      emit,
      sandbox: NOT_CHECKED,
      judged: new Map(),
      deciding: new Set(),
      hooks: this.hooks.runtime,
      notify: (message) => this.hooks.notify(message),
      auto: this.auto,
    };
    const run = this.active;
    this.writer.append({ type: 'prompt', runId, text, agentMode });
    this.record.promptStarted(runId, text);
    this.personMessages.push(text);
    await this.writer.flush();
    let result: AgentRunResult;
    const checkpoint = await this.checkpoints.before({ sessionId: this.id, runId, prompt: text, agentMode });
    try {
      run.readDenyRules = readDenyRules((await this.engine.state.current()).rules); // before the mask: a rule added meanwhile asks
      const sandbox = await this.checkSandbox();
      run.sandbox = sandbox.status;
      run.backgroundAsk = (await readBackgroundAsk(this.options.configDir)).value;
      const task = await this.hooks.promptTask(
        text,
        this.options.resume ? 'resume' : 'startup',
        this.record.hookReporter(run),
      );
      const live = this.options.modelConfig?.();
      const mcpServers = await this.context.mcpServers();
      this.mcp.sending(runId, mcpServers);
      // A cancel while the prompt was being prepared (checkpoint, sandbox check, hooks, servers) ends it here: the
      // worker never hears of a run it would otherwise start after the person stopped it.
      if (abort.signal.aborted) throw CANCELLED_BEFORE_START;
      result = await this.options.host.request(
        'agent.run',
        {
          runId,
          task,
          agentMode,
          ...(options.plan !== undefined ? { plan: options.plan } : {}),
          history: this.writer.conversation,
          model: live?.model ?? this.options.model,
          maxTurns: options.maxTurns ?? this.options.maxTurns ?? DEFAULT_MAX_TURNS,
          projectRoot: this.header.projectRoot,
          additionalDirectories: await this.context.additionalDirectories(),
          provider: live?.provider ?? this.options.provider,
          sandbox: sandbox.config,
          ...(await this.context.instructions()),
          ...(mcpServers.length ? { mcpServers } : {}),
          ...(await this.context.definitions()),
        },
        { timeoutMs: 0 },
      );
    } catch (err) {
      // The worker died (or never came up), or a UserPromptSubmit hook blocked the prompt: the transcript keeps the
      // last turn's checkpoint; the session resumes.
      const cancelled = err === CANCELLED_BEFORE_START;
      const error = toRpcError(err);
      result = {
        status: cancelled ? 'cancelled' : 'error',
        conversation: this.writer.conversation,
        usage: { inputTokens: 0, outputTokens: 0 },
        turns: 0,
        finalText: '',
        ...(cancelled ? {} : { error }),
      };
    } finally {
      // The worker is done with the run: an approval still waiting is moot (denied), and every decision event is
      // out before the result.
      if (run.deciding.size) abort.abort();
      await Promise.allSettled([...run.deciding]);
      this.active = null;
    }
    const autoStats = run.autoStats;
    if (autoStats) this.record.record(run, { type: 'auto_usage', stats: autoStats });
    await this.checkpoints.after(checkpoint);
    this.writer.recordConversation(runId, result.conversation);
    this.record.promptEnded(runId);
    const { status, usage, turns, finalText } = result;
    this.writer.append({
      type: 'result',
      runId,
      status,
      usage,
      turns,
      finalText,
      ...(result.error ? { error: result.error } : {}),
    });
    await this.writer.flush();
    await this.engine.flushAudit(); // the run's decisions are on disk when the prompt returns
    return {
      sessionId: this.id,
      runId,
      status,
      finalText,
      usage,
      turns,
      ...(result.error ? { error: result.error } : {}),
      ...(autoStats ? { auto: autoStats } : {}),
    };
  }

  /** Cancels the running prompt (model request, tools, pending approval). */
  async cancel(): Promise<boolean> {
    const run = this.active;
    if (!run) return false;
    run.abort.abort();
    try {
      // A run still being prepared is not in the worker yet: the abort stops it before it starts.
      return (await this.options.host.request('agent.cancel', { runId: run.runId })).cancelled || this.active === run;
    } catch {
      return this.active === run;
    }
  }

  async close(options: { stopWorker?: boolean } = {}): Promise<void> {
    if (this.closed) return;
    await this.cancel();
    // The cancelled prompt records its end (its result, checkpoint and decisions) before the transcript closes.
    await settleWithin(() => this.lastPrompt, CLOSE_WAIT_MS);
    this.closed = true;
    this.offEvents();
    await this.writer.close().catch(() => undefined); // a write failure was reported by the run that made it
    await this.hooks.dispose().catch(() => undefined);
    await this.engine.flushAudit();
    if (options.stopWorker ?? true) {
      // The sandboxes' private temp dirs and proxies are the worker's to remove; it is killed right after.
      await this.options.host.request('sandbox.dispose', {}, { timeoutMs: 3_000 }).catch(() => undefined);
      await this.options.host.stop();
    }
  }
}

function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    // A failing listener loses its event; the run goes on.
  }
}
