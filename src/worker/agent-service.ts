import type { ConversationMessage } from '../shared/conversation';
import { GatehouseError } from '../shared/errors';
import type { Decision } from '../shared/permission';
import type {
  AgentRunParams,
  AgentRunResult,
  HookEventRequest,
  HookEventResult,
  McpServersReport,
  PermissionRequest,
  ReadableRequest,
  ReadableResult,
} from '../shared/worker-protocol';
import { AGENT_CHECKPOINT, AGENT_EVENT } from '../shared/worker-protocol';
import { permissionBridge } from './agent/permission-bridge';
import { readCheckBridge } from './agent/read-check-bridge';
import { runAgent } from './agent/runner';
import type { BeforeToolCall, RunAgentOptions } from './agent/runner';
import type { MainPort } from './port';
import { CommandConfinement } from './command-confinement';
import type { ModelProvider } from './providers/types';
import { createToolRegistry } from './tools/tool-set';
import type { CommandWrapper } from './tools/run-command';
import type { CommandShell } from '../shared/node/command-shell';
import type { ToolRegistry } from './tools/types';
import { startRunMcp, type RunMcp } from './mcp/run-mcp';
import type { McpTimings } from './mcp/mcp-connection';

export interface AgentServiceDeps {
  port: MainPort;
  /** main's `permission.request`: every tool call is decided there. */
  requestPermission: (request: PermissionRequest) => Promise<Decision>;
  /** main's `permission.readable`: which files a search leaves out. Absent: the search tools refuse to run. */
  checkReadable?: (request: ReadableRequest) => Promise<ReadableResult>;
  /** main's `hooks.event`: PostToolUse and Stop hooks. Absent: no hooks run. */
  hookEvent?: (request: HookEventRequest) => Promise<HookEventResult>;
  /** Defaults to the real tools (run_command confined by `confinement`). */
  registry?: ToolRegistry;
  /** How run_command is confined; defaults to a bubblewrap sandbox cache of its own. */
  confinement?: CommandConfinement;
  /** main's `mcp.servers`: the run's MCP servers and tools, before the model sees them. */
  reportMcp?: (report: McpServersReport) => Promise<unknown>;
  /** MCP timeouts and restart backoff (tests shorten them). */
  mcpTimings?: Partial<McpTimings>;
  /** Installs the certificate authorities main named before the run's first connection; rejects when they are broken. */
  networkTrust?: () => Promise<void>;
}

/**
 * The worker's `agent.run` / `agent.cancel`: runs the agent loop with the Anthropic provider and the tool registry,
 * asks main before every tool call, streams agent events and a conversation checkpoint per model turn to main.
 */
export class AgentService {
  private readonly runs = new Map<string, AbortController>();
  /** The MCP servers of the runs going now (stopped when their run ends, or with the worker). */
  private readonly mcp = new Set<RunMcp>();
  /** One registry per command wrapper (a sandbox is reused for every run of its project and configuration). */
  private readonly registries = new WeakMap<CommandWrapper, ToolRegistry>();
  readonly confinement: CommandConfinement;

  constructor(private readonly deps: AgentServiceDeps) {
    this.confinement = deps.confinement ?? new CommandConfinement();
  }

  async run(params: AgentRunParams): Promise<AgentRunResult> {
    if (this.runs.has(params.runId)) throw new GatehouseError('BAD_REQUEST', `run "${params.runId}" is already going`);
    const abort = new AbortController();
    this.runs.set(params.runId, abort);
    let mcp: RunMcp | null = null;
    try {
      await this.deps.networkTrust?.();
      // The SDK loads with the first run, not at the worker's start (it is most of the worker's start-up CPU).
      const { AnthropicProvider } = await import('./providers/anthropic');
      const provider = withCheckpoints(
        new AnthropicProvider({
          apiKey: params.provider.apiKey,
          model: params.model,
          ...(params.provider.baseURL ? { baseURL: params.provider.baseURL } : {}),
        }),
        (conversation) =>
          this.deps.port.send({ kind: 'event', event: AGENT_CHECKPOINT, data: { runId: params.runId, conversation } }),
      );
      const confined = await this.confinement.resolve(params.projectRoot, params.additionalDirectories, params.sandbox);
      let registry = this.registry(confined.wrapper, confined.shell);
      if (params.mcpServers?.length) {
        mcp = await startRunMcp(params, registry, this.deps.mcpTimings, abort.signal);
        this.mcp.add(mcp);
        registry = mcp.registry;
        // main learns which tools exist (and which are read-only) before the model may call any of them.
        await this.deps.reportMcp?.({ runId: params.runId, servers: mcp.servers.status() }).catch(() => undefined);
      }
      const result = await runAgent({
        provider,
        registry,
        ctx: {
          projectRoot: params.projectRoot,
          additionalDirectories: params.additionalDirectories,
          signal: abort.signal,
          protectedPaths: confined.protectedPaths,
          ...(this.deps.checkReadable
            ? { readable: readCheckBridge(this.deps.checkReadable, params.runId, params.readCheckTimeoutMs) }
            : {}),
        },
        agentMode: params.agentMode,
        task: params.task,
        ...(params.plan !== undefined ? { plan: params.plan } : {}),
        ...(params.history ? { history: params.history } : {}),
        ...(params.instructions ? { systemExtra: params.instructions } : {}),
        ...(params.skills ? { skills: params.skills } : {}),
        ...(params.subagents ? { subagents: params.subagents } : {}),
        maxTurns: params.maxTurns,
        model: params.model,
        beforeToolCall: this.beforeToolCall(params.runId),
        ...this.hookPoints(params.runId),
        onEvent: (event) =>
          this.deps.port.send({ kind: 'event', event: AGENT_EVENT, data: { runId: params.runId, event } }),
        signal: abort.signal,
      });
      return {
        status: result.status,
        conversation: result.conversation,
        usage: result.usage,
        turns: result.turns,
        finalText: result.finalText,
        ...(result.error ? { error: result.error } : {}),
      };
    } finally {
      this.runs.delete(params.runId);
      if (mcp) {
        this.mcp.delete(mcp);
        await mcp.stop();
      }
    }
  }

  /** Stops every MCP server and sandbox (the worker is about to exit). */
  async dispose(): Promise<void> {
    await Promise.allSettled([...this.mcp].map((m) => m.stop()));
    await this.confinement.dispose();
  }

  cancel(runId: string): { cancelled: boolean } {
    const abort = this.runs.get(runId);
    abort?.abort();
    return { cancelled: abort !== undefined };
  }

  private registry(wrapper: CommandWrapper, shell: CommandShell): ToolRegistry {
    if (this.deps.registry) return this.deps.registry;
    let registry = this.registries.get(wrapper);
    if (registry === undefined) {
      registry = createToolRegistry({ commandWrapper: wrapper, commandShell: shell });
      this.registries.set(wrapper, registry);
    }
    return registry;
  }

  /** PostToolUse and Stop: main runs the hooks (it knows which are configured and trusted). */
  private hookPoints(runId: string): Pick<RunAgentOptions, 'afterToolCall' | 'onStop'> {
    const hookEvent = this.deps.hookEvent;
    if (!hookEvent) return {};
    return {
      afterToolCall: async (call, response) =>
        (
          await hookEvent({
            runId,
            event: 'PostToolUse',
            callId: call.id,
            tool: call.name,
            input: call.input,
            response,
          })
        ).feedback,
      onStop: (stopHookActive) => hookEvent({ runId, event: 'Stop', stopHookActive }),
    };
  }

  /** main decides; the request carries the run and the model's call id so main can route and record it. */
  private beforeToolCall(runId: string): BeforeToolCall {
    return (call) =>
      permissionBridge((request) => this.deps.requestPermission({ ...request, runId, callId: call.id }))(call);
  }
}

/** The provider, reporting the conversation it is about to send: main's per-turn transcript checkpoint. */
function withCheckpoints(
  provider: ModelProvider,
  checkpoint: (conversation: ConversationMessage[]) => void,
): ModelProvider {
  return {
    name: provider.name,
    defaultModel: provider.defaultModel,
    stream(request, handlers, signal) {
      try {
        checkpoint(request.messages);
      } catch {
        // A lost checkpoint costs the transcript one turn, never the run.
      }
      return provider.stream(request, handlers, signal);
    },
  };
}
