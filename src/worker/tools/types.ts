import type { ToolPreview } from '../../shared/agent-events';
import type { AgentMode, SandboxKind } from '../../shared/permission';
import type { ToolSafety } from '../../shared/tools';
import type { ReadableCheck } from './read-filter';

/** Where and how a tool runs. The roots are real paths (symlinks resolved) decided by main. */
export interface ToolContext {
  projectRoot: string;
  additionalDirectories: string[];
  signal: AbortSignal;
  /**
   * run_command: where main said this call runs (`read-only`: the sandbox's read-only profile). Absent: the
   * workspace profile (a caller that judged nothing, such as a test or the benchmark, gets today's sandbox).
   */
  sandbox?: SandboxKind;
  /** Streams command output to the UI as it comes (run_command). */
  onOutput?: (chunk: string) => void;
  /**
   * Real paths file tools never write, on top of the project's `.gatehouse/`, `.claude/settings.json` and
   * `.claude/settings.local.json` (self-protection, re-checked at open time): e.g. the user config directory.
   */
  protectedPaths?: string[];
  /**
   * Asks main which files of a search result must be left out (read denied or needing approval). Without it the
   * search tools refuse to run (fail closed): the agent service always gives one.
   */
  readable?: ReadableCheck;
}

/** What a tool returns to the model. Errors are results (`isError: true`), never a crashed worker. */
export interface ToolResult {
  content: string;
  isError: boolean;
  /** run_command: the process's exit code (null when killed). */
  exitCode?: number | null;
  /** run_command: the rows of `content` with their colours (ANSI), for the card's terminal view; never sent to the model. */
  terminal?: string;
}

/** A read-only preview for the approval UI: the unified diff a write/edit would make, or why none can be shown. */
export type { ToolPreview };

/** The JSON shape the model sees for one tool (Anthropic Messages API `tools[]`). */
export interface ModelToolDefinition {
  /** A built-in tool's name, or `mcp__<server>__<tool>`. */
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

/** Any tool the model is shown: a registry tool, or a system tool of the agent loop (`load_skill`, `task`). */
export type ToolDefinitionForModel = ModelToolDefinition;

export interface ToolRegistry {
  /** Definitions the model is shown in this agent mode (plan: read-only tools only). */
  definitions(agentMode: AgentMode): ModelToolDefinition[];
  safety(name: string): ToolSafety | null;
  /** The preview a write/edit would make, computed without touching the disk; undefined for other tools. */
  preview(name: string, rawInput: unknown, ctx: ToolContext): Promise<ToolPreview | undefined>;
  /**
   * The execution gate and the run: re-checks the tool is allowed in `agentMode` and by `allowList` (when given),
   * validates the input, runs with the tool's timeout; every failure comes back as an error result.
   */
  execute(
    name: string,
    rawInput: unknown,
    ctx: ToolContext,
    gate: { agentMode: AgentMode; allowList?: readonly string[] },
  ): Promise<ToolResult>;
}
