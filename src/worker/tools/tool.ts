import type { z } from 'zod';
import { TOOLS, type ToolName, type ToolSafety } from '../../shared/tools';
import type { ToolContext, ToolPreview, ToolResult } from './types';

/** A failure a tool reports to the model as is (its message is the content of the error result). */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolError';
  }
}

/** What a tool receives when it runs: the caller's context, the combined cancel/timeout signal, its limits. */
export interface ToolRunContext extends ToolContext {
  maxOutputChars: number;
}

/** How one tool is written: typed against its own schema, which must be the one in src/shared/tools.ts. */
export interface ToolSpec<S extends z.ZodType> {
  name: ToolName;
  input: S;
  description: string;
  /** Wall-clock limit the registry enforces around `run`. */
  timeoutMs(input: z.infer<S>): number;
  run(input: z.infer<S>, ctx: ToolRunContext): Promise<ToolResult>;
  preview?(input: z.infer<S>, ctx: ToolContext): Promise<ToolPreview | undefined>;
}

/** The same tool with its input type erased behind validation, so the registry can hold all of them. */
export interface RegisteredTool {
  name: ToolName;
  description: string;
  safety: ToolSafety;
  inputSchema: z.ZodType;
  prepare(rawInput: unknown): PreparedCall | { ok: false; issues: z.core.$ZodIssue[] };
}

interface PreparedCall {
  ok: true;
  timeoutMs: number;
  run(ctx: ToolRunContext): Promise<ToolResult>;
  preview(ctx: ToolContext): Promise<ToolPreview | undefined>;
}

export function defineTool<S extends z.ZodType>(spec: ToolSpec<S>): RegisteredTool {
  const contract = TOOLS[spec.name];
  const contractSchema: z.ZodType = contract.input;
  const specSchema: z.ZodType = spec.input;
  if (contractSchema !== specSchema)
    throw new Error(`tool ${spec.name}: its schema is not the contract's (src/shared/tools.ts)`);
  const schema = spec.input;
  return {
    name: spec.name,
    description: spec.description,
    safety: contract.safety,
    inputSchema: spec.input,
    prepare(rawInput) {
      const parsed = schema.safeParse(rawInput);
      if (!parsed.success) return { ok: false, issues: parsed.error.issues };
      const input = parsed.data;
      return {
        ok: true,
        timeoutMs: spec.timeoutMs(input),
        run: (ctx) => spec.run(input, ctx),
        preview: async (ctx) => (spec.preview ? spec.preview(input, ctx) : undefined),
      };
    },
  };
}

export function ok(content: string): ToolResult {
  return { content, isError: false };
}
