import type { AgentEvent, CallPosition } from '../../shared/agent-events';
import type { ConversationMessage } from '../../shared/conversation';
import type { AgentMode, SandboxKind } from '../../shared/permission';
import type { AgentLabel, SkillWire, SubagentWire } from '../../shared/skills-contract';
import type { ModelProvider } from '../providers/types';
import type { ToolContext, ToolPreview, ToolRegistry } from '../tools/types';

/** A tool call as the runner hands it to the permission check (main's engine, over the port). */
export interface ToolCallRequest {
  id: string;
  name: string;
  input: unknown;
  preview?: ToolPreview;
  /** Its place among the model's calls of this turn. */
  position?: CallPosition;
  /** The sub-agent that made the call; absent: the session's own agent. */
  agent?: AgentLabel;
}

/**
 * The answer of the permission check. A denial carries who decided, why and, where it helps, what would pass.
 * `announced`: the decider (main's permission gate) has emitted the call's `tool_call_decided` itself, so the
 * runner does not; otherwise the runner emits it.
 */
export type ToolCallVerdict =
  | {
      allow: true;
      source?: string;
      reason?: string;
      rule?: string | null;
      announced?: boolean;
      /** run_command: where main said it runs (absent: the runner's caller decided nothing, the tool's default). */
      sandbox?: SandboxKind;
    }
  | { allow: false; reason: string; source: string; rule?: string | null; alternative?: string; announced?: boolean };

export type BeforeToolCall = (call: ToolCallRequest) => Promise<ToolCallVerdict>;

/**
 * After a tool ran: main's PostToolUse hooks see the call and its result; what they say for the model ('' for
 * nothing) is added to the result the model gets.
 */
export type AfterToolCall = (call: ToolCallRequest, result: { content: string; isError: boolean }) => Promise<string>;

/**
 * The model answered without a tool call: main's Stop hooks may block the stop; then `feedback` is the next turn.
 * `stopHookActive`: the run already continued because of a Stop hook (Claude Code's guard against loops).
 */
type OnStop = (stopHookActive: boolean) => Promise<{ blocked: boolean; feedback: string }>;

export interface RunAgentOptions {
  provider: ModelProvider;
  registry: ToolRegistry;
  ctx: ToolContext;
  agentMode: AgentMode;
  task: string;
  /** do mode: the plan the person confirmed. */
  plan?: string;
  /** Earlier messages of this session (a follow-up in chat, a resumed session). */
  history?: ConversationMessage[];
  maxTurns: number;
  beforeToolCall: BeforeToolCall;
  afterToolCall?: AfterToolCall;
  onStop?: OnStop;
  onEvent: (event: AgentEvent) => void;
  signal: AbortSignal;
  /** Defaults to the provider's model. */
  model?: string;
  /** Output tokens per model turn. Default 8192. */
  maxTokens?: number;
  /** Context window, in tokens (default 200 000), and the share at which old tool outputs are trimmed (0.8). */
  contextLimitTokens?: number;
  contextThresholdRatio?: number;
  /** Tool names allowed in this run (e.g. a restricted sub-agent): filters the definitions and gates execution. */
  allowList?: readonly string[];
  /** Extra system instructions (project instructions, settings). */
  systemExtra?: string;
  /** Skills the model may load with `load_skill` (names and descriptions are in the system prompt). */
  skills?: readonly SkillWire[];
  /** Sub-agents the model may start with `task`. */
  subagents?: readonly SubagentWire[];
}
