import { AgentEventSchema } from '../../../src/shared/agent-events';
import type { AgentEvent } from '../../../src/shared/agent-events';
import type { AgentMode } from '../../../src/shared/permission';
import { TOOLS, isToolName } from '../../../src/shared/tools';
import type { ToolSafety } from '../../../src/shared/tools';
import { CancelledError } from '../../../src/worker/providers/errors';
import type {
  ContentBlock,
  ModelProvider,
  ProviderRequest,
  ProviderResponse,
  ProviderStreamHandlers,
} from '../../../src/worker/providers/types';
import type {
  ModelToolDefinition,
  ToolContext,
  ToolPreview,
  ToolRegistry,
  ToolResult,
} from '../../../src/worker/tools/types';

/** A scripted model: each call to stream() takes the next answer (or a function of the request) from the queue. */
export class ScriptedProvider implements ModelProvider {
  readonly name = 'scripted';
  readonly defaultModel = 'scripted-model';
  readonly requests: ProviderRequest[] = [];
  private readonly script: Array<
    ProviderResponse | Error | ((req: ProviderRequest, signal: AbortSignal) => Promise<ProviderResponse>)
  > = [];

  push(
    ...answers: Array<
      ProviderResponse | Error | ((req: ProviderRequest, signal: AbortSignal) => Promise<ProviderResponse>)
    >
  ): this {
    this.script.push(...answers);
    return this;
  }

  async stream(
    request: ProviderRequest,
    handlers: ProviderStreamHandlers,
    signal: AbortSignal,
  ): Promise<ProviderResponse> {
    if (signal.aborted) throw new CancelledError();
    // Deep copy: the runner keeps mutating its conversation after the call.
    this.requests.push(structuredClone(request));
    const next = this.script.shift();
    if (!next) throw new Error('scripted provider: no answer left');
    if (next instanceof Error) throw next;
    const answer = typeof next === 'function' ? await next(request, signal) : next;
    for (const block of answer.content) if (block.type === 'text') handlers.onText(block.text);
    return answer;
  }
}

export function answer(...content: ContentBlock[]): ProviderResponse {
  return {
    content,
    stopReason: content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn',
    usage: { inputTokens: 10, outputTokens: 5 },
  };
}

export const call = (id: string, name: string, input: unknown): ContentBlock => ({ type: 'tool_use', id, name, input });
export const say = (text: string): ContentBlock => ({ type: 'text', text });

export interface ExecutionRecord {
  name: string;
  input: unknown;
  agentMode: AgentMode;
  start: number;
  end: number;
  /** The tools that were running when this one started (to see overlap without a clock). */
  runningAtStart: string[];
}

/**
 * An in-memory registry with the contract's tool names and safety. `runs` records every execution with its timing;
 * `gateBroken` makes it run anything in any mode (to prove the runner's own execution gate).
 */
export class RecordingRegistry implements ToolRegistry {
  readonly runs: ExecutionRecord[] = [];
  private readonly running: { name: string }[] = [];
  delays: Partial<Record<string, number>> = {};
  gateBroken = false;

  definitions(agentMode: AgentMode): ModelToolDefinition[] {
    return Object.entries(TOOLS)
      .filter(([, t]) => agentMode !== 'plan' || t.safety === 'readOnly')
      .map(([name, t]) => ({
        name: name as keyof typeof TOOLS,
        description: t.description,
        input_schema: { type: 'object' },
      }));
  }

  safety(name: string): ToolSafety | null {
    return isToolName(name) ? TOOLS[name].safety : null;
  }

  async preview(name: string, rawInput: unknown): Promise<ToolPreview | undefined> {
    if (this.safety(name) !== 'write') return undefined;
    const path = typeof rawInput === 'object' && rawInput !== null && 'path' in rawInput ? String(rawInput.path) : '?';
    return { kind: 'diff', path, unifiedDiff: `--- ${path}\n+++ ${path}\n` };
  }

  async execute(
    name: string,
    rawInput: unknown,
    ctx: ToolContext,
    gate: { agentMode: AgentMode; allowList?: readonly string[] },
  ): Promise<ToolResult> {
    if (!this.gateBroken && gate.agentMode === 'plan' && this.safety(name) !== 'readOnly') {
      return { content: `tool_not_allowed: ${name} (registry gate)`, isError: true };
    }
    const start = Date.now();
    const runningAtStart = this.running.map((r) => r.name);
    const me = { name };
    this.running.push(me);
    const delay = this.delays[name] ?? 0;
    // eslint-disable-next-line tests/no-fixed-sleep -- a tool that takes time: what the scheduling tests run
    if (delay) await new Promise((r) => setTimeout(r, delay));
    ctx.onOutput?.(`output of ${name}`);
    this.running.splice(this.running.indexOf(me), 1);
    this.runs.push({ name, input: rawInput, agentMode: gate.agentMode, start, end: Date.now(), runningAtStart });
    return { content: `result of ${name} ${JSON.stringify(rawInput)}`, isError: false };
  }
}

export function toolContext(signal: AbortSignal = new AbortController().signal): ToolContext {
  return { projectRoot: '/nonexistent-project', additionalDirectories: [], signal };
}

/** Collects events and checks each one against the shared contract schema. */
export function eventLog(): { events: AgentEvent[]; onEvent: (e: AgentEvent) => void } {
  const events: AgentEvent[] = [];
  return {
    events,
    onEvent: (e) => {
      const parsed = AgentEventSchema.safeParse(e);
      if (!parsed.success) throw new Error(`event fails the contract: ${JSON.stringify(e)}: ${parsed.error.message}`);
      events.push(e);
    },
  };
}
