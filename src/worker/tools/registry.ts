import { z } from 'zod';
import type { AgentMode } from '../../shared/permission';
import { TOOL_NAMES, type ToolName, type ToolSafety } from '../../shared/tools';
import type { RegisteredTool } from './tool';
import { ToolError } from './tool';
import { truncateHeadTail } from './truncate';
import type { ModelToolDefinition, ToolContext, ToolPreview, ToolRegistry, ToolResult } from './types';

/** How long a tool may take to wind down after a cancel or timeout before the registry answers for it. */
const WIND_DOWN_MS = 3_000;

function errorResult(content: string): ToolResult {
  return { content, isError: true };
}

/** zod issues as `field: message` lines, for the model to fix its input. */
function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => {
      const where = issue.path.length === 0 ? '(input)' : issue.path.map(String).join('.');
      return `${where}: ${issue.message}`;
    })
    .join('; ');
}

function modelSchema(schema: z.ZodType): Record<string, unknown> {
  const json: Record<string, unknown> = { ...z.toJSONSchema(schema, { io: 'input' }) };
  delete json.$schema;
  return json;
}

/** Which gate refuses this call, if any: agent mode first, then the name allow-list. */
function gateRefusal(
  name: ToolName,
  safety: ToolSafety,
  gate: { agentMode: AgentMode; allowList?: readonly string[] },
): string | null {
  if (gate.agentMode === 'plan' && safety !== 'readOnly') {
    return `tool_not_allowed: ${name} is not available in plan mode (only read-only tools run while planning; it ${safety === 'write' ? 'writes files' : 'runs commands'})`;
  }
  if (gate.allowList !== undefined && !gate.allowList.includes(name)) {
    const allowed = gate.allowList.length === 0 ? 'none' : gate.allowList.join(', ');
    return `tool_not_allowed: ${name} is not in this agent's allowed tools (allowed: ${allowed})`;
  }
  return null;
}

function failureMessage(err: unknown): string {
  if (err instanceof ToolError) return err.message;
  if (err instanceof Error) return `tool_error: ${err.message}`;
  return `tool_error: ${String(err)}`;
}

export class Registry implements ToolRegistry {
  private readonly byName: ReadonlyMap<string, RegisteredTool>;
  private readonly cachedDefinitions: ModelToolDefinition[];

  constructor(
    tools: readonly RegisteredTool[],
    private readonly maxOutputChars: number,
    private readonly windDownMs = WIND_DOWN_MS,
  ) {
    this.byName = new Map(tools.map((t) => [t.name, t]));
    const order = (t: RegisteredTool): number => TOOL_NAMES.indexOf(t.name);
    this.cachedDefinitions = [...tools]
      .sort((a, b) => order(a) - order(b))
      .map((t) => ({ name: t.name, description: t.description, input_schema: modelSchema(t.inputSchema) }));
  }

  definitions(agentMode: AgentMode): ModelToolDefinition[] {
    return this.cachedDefinitions
      .filter((d) => agentMode !== 'plan' || this.safety(d.name) === 'readOnly')
      .map((d) => ({ ...d, input_schema: structuredClone(d.input_schema) }));
  }

  safety(name: string): ToolSafety | null {
    return this.byName.get(name)?.safety ?? null;
  }

  /** Errors (target outside the roots, edit that cannot apply, invalid input) give `undefined`: execute reports them. */
  async preview(name: string, rawInput: unknown, ctx: ToolContext): Promise<ToolPreview | undefined> {
    const tool = this.byName.get(name);
    if (tool === undefined) return undefined;
    try {
      const call = tool.prepare(rawInput);
      return call.ok ? await call.preview(ctx) : undefined;
    } catch {
      return undefined;
    }
  }

  async execute(
    name: string,
    rawInput: unknown,
    ctx: ToolContext,
    gate: { agentMode: AgentMode; allowList?: readonly string[] },
  ): Promise<ToolResult> {
    try {
      const tool = this.byName.get(name);
      if (tool === undefined) return errorResult(`unknown_tool: there is no tool named ${JSON.stringify(name)}`);
      const refusal = gateRefusal(tool.name, tool.safety, gate);
      if (refusal !== null) return errorResult(refusal);
      const call = tool.prepare(rawInput);
      if (!call.ok) return errorResult(`invalid_input: ${name}: ${describeIssues(call.issues)}`);
      if (ctx.signal.aborted) return errorResult(`cancelled: ${name} was not run`);
      const result = await this.runWithTimeout(
        name,
        call.timeoutMs,
        (signal) => call.run({ ...ctx, signal, maxOutputChars: this.maxOutputChars }),
        ctx.signal,
      );
      return { ...result, content: truncateHeadTail(result.content, this.maxOutputChars) };
    } catch (err) {
      return errorResult(failureMessage(err));
    }
  }

  private async runWithTimeout(
    name: string,
    timeoutMs: number,
    run: (signal: AbortSignal) => Promise<ToolResult>,
    outer: AbortSignal,
  ): Promise<ToolResult> {
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), timeoutMs);
    const signal = AbortSignal.any([outer, timeout.signal]);
    const why = (): string =>
      timeout.signal.aborted
        ? `timeout: ${name} did not finish within ${timeoutMs} ms`
        : `cancelled: ${name} was cancelled`;
    // A tool that gives up by throwing on abort is reported as timed out / cancelled, not as a crash.
    const running = run(signal).catch((err: unknown) => {
      if (signal.aborted) return errorResult(why());
      throw err;
    });
    const stopped = new Promise<ToolResult>((resolve) => {
      const answer = (): void => {
        const grace = setTimeout(() => resolve(errorResult(why())), this.windDownMs);
        running.finally(() => clearTimeout(grace)).catch(() => undefined);
      };
      if (signal.aborted) answer();
      else signal.addEventListener('abort', answer, { once: true });
    });
    try {
      return await Promise.race([running, stopped]);
    } finally {
      clearTimeout(timer);
    }
  }
}
