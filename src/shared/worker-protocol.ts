import { z } from 'zod';
import { RpcErrorSchema } from './errors';
import { AgentEventSchema, CallPositionSchema, RunOutcomeSchema, ToolPreviewSchema } from './agent-events';
import { ConversationMessageSchema } from './conversation';
import { ActiveMcpServerSchema, McpServerRunStatusSchema } from './mcp-contract';
import { AgentModeSchema, DecisionSchema } from './permission';
import { AgentLabelSchema, SkillWireSchema, SubagentWireSchema } from './skills-contract';

/**
 * The typed port between main and the worker. Both directions may send requests (main asks the worker to do
 * things; the worker asks main for a permission decision before every tool call). Every request carries an id;
 * its response carries the same id.
 */
export const WORKER_PROTOCOL_VERSION = 1;

export const WorkerInfoSchema = z.object({
  protocol: z.number().int(),
  version: z.string(),
  pid: z.number().int(),
  runtime: z.enum(['node', 'electron']),
  nodeVersion: z.string(),
  startedAt: z.string(),
  /** Names (never values) of the worker's environment variables: shows it was built from scratch. */
  envNames: z.array(z.string()),
});
export type WorkerInfo = z.infer<typeof WorkerInfoSchema>;

const runId = z.string().min(1).max(100);

/**
 * Real paths (files and folders) a `Read` deny rule denies, each with that rule's text. `incomplete`: main could
 * not list them all (too many files to check): the sandbox then reports unavailable with that reason, so every
 * command asks, rather than trusting a partial mask.
 */
const ReadDenyMaskSchema = z.object({
  hidden: z.array(z.object({ path: z.string().min(1).max(4096), rule: z.string().max(2000) })).max(10_000),
  incomplete: z.string().min(1).max(500).optional(),
});
export type ReadDenyMaskWire = z.infer<typeof ReadDenyMaskSchema>;

/**
 * How `run_command` is confined, decided by main from the settings (`sandbox:` in the user / project settings).
 * `enabled: false` only ever comes from the user's own settings: the worker then runs commands unsandboxed
 * (environment still scrubbed). `bwrapPath`: an explicit bubblewrap binary (`GATEHOUSE_BWRAP`; tests point it
 * at a missing file to simulate an unavailable sandbox).
 */
const SandboxRunConfigSchema = z.object({
  enabled: z.boolean(),
  allowedDomains: z.array(z.string().min(1).max(300)).max(1000),
  envAllowList: z.array(z.string().min(1).max(300)).max(1000),
  userConfigDir: z.string().min(1),
  home: z.string().min(1),
  bwrapPath: z.string().min(1).optional(),
  /** What the `Read(...)` deny rules deny on disk now: hidden inside the sandbox (see src/main/core/sandbox/read-deny-mask.ts). */
  readDeny: ReadDenyMaskSchema.optional(),
  /** `sandbox.allowUnixSockets`: sockets the person opened into the sandbox (absolute paths). */
  allowUnixSockets: z.array(z.string().min(1).max(4096)).max(100).optional(),
  /** The person's $XDG_RUNTIME_DIR (the worker's environment does not carry it): masked in the sandbox. */
  runtimeDir: z.string().min(1).max(4096).optional(),
  /** Variables of the person's environment that name an opened socket (SSH_AUTH_SOCK): set in the sandbox. */
  openSocketEnv: z.record(z.string().min(1).max(200), z.string().max(4096)).optional(),
});
export type SandboxRunConfig = z.infer<typeof SandboxRunConfigSchema>;

/** `sandbox.status`: whether commands of this project would run sandboxed (the sandbox is set up and probed). */
export const SandboxStatusParamsSchema = z.object({
  projectRoot: z.string().min(1),
  additionalDirectories: z.array(z.string().min(1)),
  sandbox: SandboxRunConfigSchema,
});
const SandboxStatusSchema = z.object({
  /** False when the user turned the sandbox off in their settings. */
  enabled: z.boolean(),
  /** True when a working sandbox confines every command. */
  available: z.boolean(),
  /** Why it is unavailable (for a persistent warning), when it is. */
  reason: z.string().optional(),
  mechanism: z.string().optional(),
  /**
   * What runs the commands: bash (Git for Windows' on Windows), or PowerShell on a Windows machine without Git Bash,
   * which the engine cannot read (every command then asks). Absent: bash.
   */
  shell: z.enum(['bash', 'powershell']).optional(),
});
export type SandboxStatus = z.infer<typeof SandboxStatusSchema>;

/** `agent.run`: one prompt of a session. The model key travels here, never through the worker's environment. */
const AgentRunParamsSchema = z.object({
  runId,
  task: z.string().max(1_000_000),
  agentMode: AgentModeSchema,
  /** do mode: the plan the person confirmed. */
  plan: z.string().max(1_000_000).optional(),
  /** The session's conversation so far (a follow-up, a resumed session). */
  history: z.array(ConversationMessageSchema).optional(),
  model: z.string().min(1).max(200),
  maxTurns: z.number().int().min(1).max(1000),
  /** Real paths, resolved by main. */
  projectRoot: z.string().min(1),
  additionalDirectories: z.array(z.string().min(1)),
  provider: z.object({ apiKey: z.string().min(1), baseURL: z.string().url().optional() }),
  /** How run_command is confined; absent: the sandbox on, no network, the worker's own defaults (fail safe). */
  sandbox: SandboxRunConfigSchema.optional(),
  /** The project's instruction files (AGENTS.md, CLAUDE.md, .gatehouse/instructions.md): sent only for a trusted project. */
  instructions: z.string().max(1_000_000).optional(),
  /** How long a search tool waits for main's `permission.readable` before it fails (default 20 s; tests shorten it). */
  readCheckTimeoutMs: z.number().int().min(1).max(600_000).optional(),
  /** The MCP servers this run connects to (main decided which: trust, approvals); their tools join the registry. */
  mcpServers: z.array(ActiveMcpServerSchema).max(100).optional(),
  /** Skills the model may load (the person's, and a trusted project's). */
  skills: z.array(SkillWireSchema).max(1000).optional(),
  /** Sub-agents the model may start with `task` (the person's, and a trusted project's). */
  subagents: z.array(SubagentWireSchema).max(1000).optional(),
});
export type AgentRunParams = z.infer<typeof AgentRunParamsSchema>;

const AgentRunResultSchema = z.object({
  ...RunOutcomeSchema.shape,
  /** The whole conversation, history included; every tool_use has its tool_result, even after a cancel. */
  conversation: z.array(ConversationMessageSchema),
});
export type AgentRunResult = z.infer<typeof AgentRunResultSchema>;

/** Port events the worker sends while a run goes (`{kind:'event', event, data}`). */
export const AGENT_EVENT = 'agent';
/** The conversation as the model is about to see it, before each model turn: main's transcript checkpoint. */
export const AGENT_CHECKPOINT = 'agent.checkpoint';
export const AgentEventDataSchema = z.object({ runId, event: AgentEventSchema });
export const AgentCheckpointDataSchema = z.object({ runId, conversation: z.array(ConversationMessageSchema) });

/** Methods main may call on the worker: params and result schemas. */
export const WorkerMethods = {
  info: { params: z.object({}), result: WorkerInfoSchema },
  /** Waits, then answers: used by the supervisor's tests and the benchmark to hold a request in flight. */
  delay: { params: z.object({ ms: z.number().int().min(0).max(60_000) }), result: z.object({ sleptMs: z.number() }) },
  echo: { params: z.object({ value: z.string().max(1_000_000) }), result: z.object({ value: z.string() }) },
  'agent.run': { params: AgentRunParamsSchema, result: AgentRunResultSchema },
  /** Aborts a run: the model request and any running tool. `cancelled` is false when no such run is going. */
  'agent.cancel': { params: z.object({ runId }), result: z.object({ cancelled: z.boolean() }) },
  /** Sets up (and caches) the command sandbox for a project and says whether it works. */
  'sandbox.status': { params: SandboxStatusParamsSchema, result: SandboxStatusSchema },
  /** `gatehouse mcp test`: connects to one server as a run would (same client, same sandbox), lists its tools, stops it. */
  'mcp.test': {
    params: z.object({
      server: ActiveMcpServerSchema,
      projectRoot: z.string().min(1),
      additionalDirectories: z.array(z.string().min(1)),
      sandbox: SandboxRunConfigSchema,
    }),
    result: McpServerRunStatusSchema,
  },
  /** Tears down every cached sandbox (its private temp dir, its network proxy) before the worker is stopped. */
  'sandbox.dispose': { params: z.object({}), result: z.object({ disposed: z.boolean() }) },
  /** Benchmark: p50 of a trivial command sandboxed vs direct (an error when there is no sandbox here). */
  'bench.sandboxOverhead': {
    params: z.object({ runs: z.number().int().min(1).max(1000).optional() }),
    result: z.object({ sandboxed_p50_ms: z.number(), read_only_p50_ms: z.number(), direct_p50_ms: z.number() }),
  },
  /**
   * Benchmark: rendering command output in the worker's headless terminal: p50 of a one-line output (a terminal
   * made, fed, read and disposed), and one render each of an npm-style spinner and of 10 MB of coloured lines.
   */
  'bench.commandOutput': {
    params: z.object({ count: z.number().int().min(1).max(10_000) }),
    result: z.object({ small_p50_us: z.number(), spinner_ms: z.number(), lines_10mb_ms: z.number() }),
  },
  /** Benchmark: p50 of `count` read_file calls, each asking main `permission.request` then running the tool. */
  'bench.toolRoundtrip': {
    params: z.object({ projectRoot: z.string().min(1), count: z.number().int().min(1).max(100_000) }),
    result: z.object({ p50_us: z.number(), samples: z.number().int() }),
  },
} as const;
export type WorkerMethod = keyof typeof WorkerMethods;
export type WorkerParams<M extends WorkerMethod> = z.infer<(typeof WorkerMethods)[M]['params']>;
export type WorkerResult<M extends WorkerMethod> = z.infer<(typeof WorkerMethods)[M]['result']>;

const PermissionRequestSchema = z.object({
  tool: z.string(),
  input: z.unknown(),
  /** A read-only preview for the approval UI, e.g. the unified diff a write would make. */
  preview: ToolPreviewSchema.optional(),
  /** The call's place among the model's calls of its turn (the approval shows "call 1 of 2"). */
  position: CallPositionSchema.optional(),
  /** The run and the model's tool_use id the request belongs to (main routes and records by them). */
  runId: runId.optional(),
  callId: z.string().max(200).optional(),
  /** The sub-agent that made the call (its agent mode and whether a person watches it); absent: the run's own agent. */
  agent: AgentLabelSchema.optional(),
});
export type PermissionRequest = z.infer<typeof PermissionRequestSchema>;

/** Most paths one `permission.readable` request may carry: a search asks in batches of this size. */
export const MAX_READABLE_PATHS = 500;

/**
 * `permission.readable`: which of these files (paths as the tools show them: relative to the project root, or
 * absolute in an additional directory) the engine would NOT let read_file read without asking. Search results
 * leave those out. Not audited as calls: nothing is read, and no person is asked.
 */
const ReadableRequestSchema = z.object({
  runId,
  paths: z.array(z.string().min(1).max(4096)).min(1).max(MAX_READABLE_PATHS),
});
export type ReadableRequest = z.infer<typeof ReadableRequestSchema>;
const HiddenFileSchema = z.object({
  path: z.string(),
  decision: z.enum(['deny', 'ask']),
  reason: z.string().max(2000),
});
export type HiddenFile = z.infer<typeof HiddenFileSchema>;
const ReadableResultSchema = z.object({ hidden: z.array(HiddenFileSchema).max(MAX_READABLE_PATHS) });
export type ReadableResult = z.infer<typeof ReadableResultSchema>;

/**
 * `hooks.event`: the agent loop reached a hook point that main's hooks (Claude Code-compatible) may act on:
 * `PostToolUse` after a tool ran (their feedback goes to the model with the result), `Stop` when the model answered
 * without a tool call (a block makes the loop continue with the hooks' reason). main runs the hooks and answers.
 */
const HookEventRequestSchema = z.discriminatedUnion('event', [
  z.object({
    runId,
    event: z.literal('PostToolUse'),
    callId: z.string().max(200),
    tool: z.string().min(1).max(100),
    input: z.unknown(),
    /** The tool's result as the model gets it. */
    response: z.object({ content: z.string(), isError: z.boolean() }),
  }),
  z.object({ runId, event: z.literal('Stop'), stopHookActive: z.boolean() }),
]);
export type HookEventRequest = z.infer<typeof HookEventRequestSchema>;
const HookEventResultSchema = z.object({
  /** PostToolUse: a hook blocked (its reason goes to the model). Stop: keep going with `feedback` as the next turn. */
  blocked: z.boolean(),
  /** What the hooks tell the model (reasons, stderr of exit 2, additionalContext); '' for nothing. */
  feedback: z.string().max(100_000),
});
export type HookEventResult = z.infer<typeof HookEventResultSchema>;

/**
 * `mcp.servers`: the run's MCP servers as the worker found them, before the model sees any of their tools. main
 * takes from it which tools' `readOnlyHint` counts (only of the servers it knows as the person's own).
 */
const McpServersReportSchema = z.object({ runId, servers: z.array(McpServerRunStatusSchema).max(100) });
export type McpServersReport = z.infer<typeof McpServersReportSchema>;

/** Methods the worker may call on main. */
export const MainMethods = {
  'permission.request': { params: PermissionRequestSchema, result: DecisionSchema },
  'permission.readable': { params: ReadableRequestSchema, result: ReadableResultSchema },
  'hooks.event': { params: HookEventRequestSchema, result: HookEventResultSchema },
  'mcp.servers': { params: McpServersReportSchema, result: z.object({}) },
} as const;
export type MainMethod = keyof typeof MainMethods;
export type MainParams<M extends MainMethod> = z.infer<(typeof MainMethods)[M]['params']>;
export type MainResult<M extends MainMethod> = z.infer<(typeof MainMethods)[M]['result']>;

const id = z.number().int().nonnegative();

const HelloSchema = z.object({ kind: z.literal('hello'), info: WorkerInfoSchema });
const RequestSchema = z.object({ kind: z.literal('request'), id, method: z.string(), params: z.unknown() });
const ResponseSchema = z.discriminatedUnion('ok', [
  z.object({ kind: z.literal('response'), id, ok: z.literal(true), result: z.unknown() }),
  z.object({ kind: z.literal('response'), id, ok: z.literal(false), error: RpcErrorSchema }),
]);
const PingSchema = z.object({ kind: z.literal('ping'), seq: z.number().int() });
const PongSchema = z.object({ kind: z.literal('pong'), seq: z.number().int() });
const WorkerEventSchema = z.object({ kind: z.literal('event'), event: z.string(), data: z.unknown() });

/** Anything on the port, either direction. Method params/results are validated per method after this. */
export const PortMessageSchema = z.union([
  HelloSchema,
  RequestSchema,
  ResponseSchema,
  PingSchema,
  PongSchema,
  WorkerEventSchema,
]);
export type PortMessage = z.infer<typeof PortMessageSchema>;
