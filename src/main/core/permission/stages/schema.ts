import type { Decision } from '../../../../shared/permission';
import { inputLimitProblem } from '../../../../shared/input-limits';
import { isToolName, ToolCallSchema, TOOLS, type ToolName } from '../../../../shared/tools';
import { decision } from '../stage-types';

export type SchemaOutcome =
  | { ok: true; tool: ToolName; input: Record<string, unknown> }
  | { ok: false; answer: Decision };

function describeIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues.map((i) => (i.path.length ? `${i.path.map(String).join('.')}: ${i.message}` : i.message)).join('; ');
}

/** The call's shape ({tool, input}), read before anything else: without a tool name nothing can be judged. */
export function parseCallShape(
  call: unknown,
): { ok: true; tool: string; input: unknown } | { ok: false; answer: Decision } {
  const shape = ToolCallSchema.safeParse(call);
  if (!shape.success)
    return {
      ok: false,
      answer: decision('deny', 'schema', `malformed tool call: ${describeIssues(shape.error.issues)}`),
    };
  return { ok: true, tool: shape.data.tool, input: shape.data.input };
}

/** Stage 2: a known tool with input that passes its schema. Unknown tool: ask (`unknown`); bad input: deny (`schema`). */
export function schemaStage(tool: string, input: unknown): SchemaOutcome {
  if (!isToolName(tool)) {
    return {
      ok: false,
      answer: decision('ask', 'unknown', `unknown tool "${tool}": Gatehouse has no such tool and will not run it`),
    };
  }
  // Before validation (and before anything serialises it): an input nested absurdly deep is refused outright.
  const tooBig = inputLimitProblem(input);
  if (tooBig) return { ok: false, answer: decision('deny', 'schema', `invalid input for ${tool}: ${tooBig}`) };
  const parsed = TOOLS[tool].input.safeParse(input);
  if (!parsed.success) {
    return {
      ok: false,
      answer: decision('deny', 'schema', `invalid input for ${tool}: ${describeIssues(parsed.error.issues)}`),
    };
  }
  return { ok: true, tool, input: parsed.data as Record<string, unknown> };
}
