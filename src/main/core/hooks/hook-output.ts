import { z } from 'zod';
import type { HookEvent } from './active-hooks';
import type { HookProcessResult } from './hook-process';

/**
 * Claude Code's hook protocol, read from a finished hook process. Exit 0: stdout may hold a JSON answer; exit 2: a
 * block, stderr is the reason; anything else (another exit code, a signal, a timeout, output that starts like JSON
 * but is not the documented shape) is a failure, which for PreToolUse means the call asks a person: a hook's output
 * is untrusted and never turns into an allow by accident.
 */
const HookJsonSchema = z.looseObject({
  continue: z.boolean().optional(),
  stopReason: z.string().optional(),
  suppressOutput: z.boolean().optional(),
  systemMessage: z.string().optional(),
  decision: z.enum(['approve', 'block']).nullish(),
  reason: z.string().optional(),
  hookSpecificOutput: z
    .looseObject({
      hookEventName: z.string().optional(),
      permissionDecision: z.enum(['allow', 'deny', 'ask', 'defer']).optional(),
      permissionDecisionReason: z.string().optional(),
      additionalContext: z.string().optional(),
      updatedInput: z.unknown().optional(),
    })
    .nullish(),
});

/** What one hook said. */
export interface HookResponse {
  /** PreToolUse: allow/deny/ask; other events: block (stop the prompt, feed back to the model, keep going). */
  decision: 'allow' | 'deny' | 'ask' | 'block' | null;
  /** The hook's reason (or stderr), as the person and the model are shown it. */
  reason: string;
  /** Why the hook failed (timeout, crash, malformed output), or null. */
  failure: string | null;
  /** Text the hook adds for the model (additionalContext; plain stdout of UserPromptSubmit and SessionStart). */
  context: string | null;
  /** A message for the person (systemMessage). */
  systemMessage: string | null;
}

const none = (over: Partial<HookResponse> = {}): HookResponse => ({
  decision: null,
  reason: '',
  failure: null,
  context: null,
  systemMessage: null,
  ...over,
});

function firstLines(text: string, max = 2000): string {
  const t = text.trim();
  return t.length > max ? `${t.slice(0, max)}… (${t.length - max} more characters)` : t;
}

/** Reads one finished hook process as Claude Code would, failing closed. */
export function readHookResponse(event: HookEvent, result: HookProcessResult, timeoutSeconds: number): HookResponse {
  const stderr = firstLines(result.stderr);
  if (result.timedOut) return none({ failure: `timed out after ${timeoutSeconds} s` });
  if (result.error !== null) return none({ failure: result.error });
  if (result.exitCode === 2)
    return none({
      decision: event === 'PreToolUse' ? 'deny' : 'block',
      reason: stderr || 'blocked by the hook (exit code 2, nothing on stderr)',
    });
  if (result.exitCode !== 0) {
    const how =
      result.exitCode === null ? `was killed by ${result.signal ?? 'a signal'}` : `exited with code ${result.exitCode}`;
    return none({ failure: `${how}${stderr ? `: ${stderr}` : ''}` });
  }
  const out = result.stdout.trim();
  if (!out.startsWith('{')) {
    const plain = event === 'UserPromptSubmit' || event === 'SessionStart' ? out : '';
    return none({ context: plain || null });
  }
  if (result.truncated) return none({ failure: 'its JSON output was cut at the output limit' });
  let json: unknown;
  try {
    json = JSON.parse(out);
  } catch (err) {
    return none({ failure: `its output is not valid JSON: ${(err as Error).message}` });
  }
  const parsed = HookJsonSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return none({
      failure: `its JSON output is malformed at ${issue.path.map(String).join('.') || '(top level)'}: ${issue.message}`,
    });
  }
  return fromJson(event, parsed.data);
}

function fromJson(event: HookEvent, j: z.infer<typeof HookJsonSchema>): HookResponse {
  const specific = j.hookSpecificOutput ?? null;
  const base = none({ context: specific?.additionalContext ?? null, systemMessage: j.systemMessage ?? null });
  if (j.continue === false) {
    const reason = j.stopReason ?? j.reason ?? 'the hook asked to stop (continue: false)';
    return { ...base, decision: event === 'PreToolUse' ? 'deny' : 'block', reason };
  }
  if (event === 'PreToolUse') {
    if (specific?.updatedInput !== undefined)
      return { ...base, failure: 'it asked to change the call (updatedInput), which Gatehouse never does' };
    const decision = specific?.permissionDecision;
    if (decision !== undefined) {
      // `defer` hands the call to a person in Claude Code's print mode: an ask.
      const kind = decision === 'defer' ? 'ask' : decision;
      return { ...base, decision: kind, reason: specific?.permissionDecisionReason ?? j.reason ?? '' };
    }
    if (j.decision === 'block') return { ...base, decision: 'deny', reason: j.reason ?? '' };
    if (j.decision === 'approve') return { ...base, decision: 'allow', reason: j.reason ?? '' };
    return base;
  }
  if (j.decision === 'block') return { ...base, decision: 'block', reason: j.reason ?? 'blocked by the hook' };
  return base;
}
