/**
 * The person's part of a decision (the decision path's last stage, src/main/core/gate/decision-path.ts): what they are
 * shown for an ask, which answers it offers, and how their answer is applied (judged again, remembered, audited).
 */
import { randomUUID } from 'node:crypto';
import type { DecisionAnswer } from '../../../shared/agent-events';
import type { ApprovalRequest } from '../../../shared/approval-contract';
import type { Decision, SandboxKind } from '../../../shared/permission';
import { isUnsandboxedCall } from '../../../shared/tools';
import type { PermissionRequest } from '../../../shared/worker-protocol';
import { ensureGitExcluded } from '../settings/git-exclude';
import { addRuleToFile } from '../settings/edit-rules-file';
import { localSettingsFile } from '../settings/settings-locations';
import type { DecideOptions, PermissionEngine } from './engine';
import { parseRule } from '../rule-syntax/parse-rule';
import { decision } from './stage-types';
import { suggestRules } from './suggest-rule';

/** A person's answer to an `ask`. `rules` are the (possibly edited) suggestions for session/always. */
export type ApprovalAnswer =
  | { kind: 'once' }
  | { kind: 'session'; rules?: string[] }
  | { kind: 'always'; rules?: string[] }
  | { kind: 'deny'; note?: string };

/** Answers an ask. `signal` aborts when the run is cancelled or the worker died: the call is then denied. */
export type Approver = (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalAnswer>;

/**
 * Rejected by an approver when no person can answer any more (an RPC client that closed its input): the call is then
 * denied "approval required", exactly as where no person was ever there.
 */
export class NoApproverError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NoApproverError';
  }
}

/** Asks the person through `approve`; rejects as soon as `signal` aborts (a cancel, a dead worker). */
export function askApprover(approve: Approver, request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
  const answer = approve(request, signal);
  if (signal.aborted) return Promise.reject(new Error('aborted'));
  return new Promise<ApprovalAnswer>((resolve, reject) => {
    const onAbort = (): void => reject(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    answer.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

const RULE_SOURCES: ReadonlySet<string> = new Set(['policy', 'cli', 'session', 'local', 'project', 'user']);

/** The ask rule that made the engine ask, if one did (contract "Approvals must be able to do what they offer"). */
function askingRule(asked: Decision): string | null {
  return asked.decision === 'ask' && asked.rule !== null && RULE_SOURCES.has(asked.source) ? asked.rule : null;
}

/**
 * The answer to this ask holds for this call only, never as a rule: a write whose content the person cannot see; a
 * call an ask rule asked about (no session or local allow could ever override it: ask beats allow); a hook's ask; a
 * hard ask (a run-time write reaching a protected folder: no rule could allow it).
 */
export function onceOnly(request: PermissionRequest, asked: Decision): boolean {
  return (
    request.preview?.kind === 'unpreviewable' ||
    askingRule(asked) !== null ||
    asked.source === 'hook' ||
    asked.source === 'hard'
  );
}

/** What the person is shown: the call, why it asks, the rules an answer would add, where a command would run. */
export function approvalRequest(
  runId: string,
  request: PermissionRequest,
  asked: Decision,
  suggestedRules: string[],
  sandbox: SandboxKind | undefined,
): ApprovalRequest {
  const rule = askingRule(asked);
  return {
    requestId: randomUUID(),
    runId,
    ...(request.callId ? { callId: request.callId } : {}),
    tool: request.tool,
    input: request.input,
    ...(request.preview ? { preview: request.preview } : {}),
    ...(request.position ? { position: request.position } : {}),
    ...(request.agent ? { agent: { id: request.agent.id, name: request.agent.name } } : {}),
    reason:
      rule === null
        ? asked.reason
        : `${asked.reason}. An allow rule can never override an ask rule, so only this call can be allowed: to stop being asked, remove or edit ${rule} (${asked.source} rules)`,
    source: asked.source,
    suggestedRules,
    ...(sandbox ? { sandbox } : {}),
    ...(suggestedRules.length === 0 ||
    isUnsandboxedCall(request.tool, request.input) ||
    request.preview?.kind === 'unpreviewable' ||
    rule !== null ||
    asked.source === 'hook' ||
    asked.source === 'hard'
      ? { onceOnly: true }
      : {}),
  };
}

/**
 * The answer as it is applied: "session" or "always" to an ask offered once only counts once, and rules a shell sent
 * for a call that had none to suggest are not stored (applyApprovalAnswer counts the answer once).
 */
export function keptAnswer(given: ApprovalAnswer, once: boolean, suggested: readonly string[]): ApprovalAnswer {
  if (given.kind !== 'session' && given.kind !== 'always') return given;
  if (once) return { kind: 'once' };
  return suggested.length === 0 ? { kind: given.kind } : given;
}

/** No answer: nobody can answer any more, the run stopped, or the approver failed. Always a deny. */
export function unanswered(err: unknown, asked: Decision, signal: AbortSignal): Decision {
  if (err instanceof NoApproverError)
    return { ...withoutPerson(asked), reason: `approval required (${err.message}): ${asked.reason}` };
  const reason = signal.aborted
    ? 'nobody answered before the run stopped'
    : `the approval failed: ${err instanceof Error ? err.message : String(err)}`;
  return { decision: 'deny', source: 'approval', rule: null, reason };
}

/** A person's answer to a command asked about only because the sandbox is missing: this one call, nothing more. */
export function answerWithoutSandbox(answer: ApprovalAnswer): Decision {
  if (answer.kind === 'deny') {
    return {
      decision: 'deny',
      source: 'approval',
      rule: null,
      reason: answer.note ? `denied by you: ${answer.note}` : 'denied by you',
    };
  }
  return {
    decision: 'allow',
    source: 'approval',
    rule: null,
    reason: 'allowed once by you (the OS sandbox is unavailable)',
  };
}

/** The person's answer as the event records it: the choice, the rules it added, a deny's note. */
export function answered(answer: ApprovalAnswer, rulesAdded: readonly string[] = []): DecisionAnswer {
  return {
    choice: answer.kind,
    ...(rulesAdded.length ? { rules: [...rulesAdded] } : {}),
    ...(answer.kind === 'deny' && answer.note ? { note: answer.note } : {}),
  };
}

/** What the engine proposes for a call that asks: the rules "allow for this session/always" would add. */
export async function proposeRules(
  engine: PermissionEngine,
  call: unknown,
  options: DecideOptions = {},
): Promise<string[]> {
  const { context, mcp } = await engine.evaluate(call, options);
  if (mcp) return [mcp.name];
  if (context === null || isUnsandboxedCall(context.tool, context.input)) return [];
  return suggestRules(context);
}

function checkedRules(rules: readonly string[]): string[] {
  for (const r of rules) {
    const parsed = parseRule(r);
    if (!parsed.ok) throw new Error(`rule "${r}" does not parse: ${parsed.reason}`);
  }
  return rules.map((r) => r.trim());
}

/**
 * Stage 8: applies a person's answer to a call the engine asked about. The call is evaluated again first: only a
 * call that still asks can be approved (nothing approves a deny, a hard check or plan mode). "session" adds session
 * rules; "always" also writes them to the project's local settings file (kept out of git). Every answer is
 * appended to the audit log. "always" writes under the file's lock (parallel writers lose nothing). `options` must be the ones the call was decided with (agent and session mode).
 */
export async function applyApproval(
  engine: PermissionEngine,
  call: unknown,
  answer: ApprovalAnswer,
  options: DecideOptions = {},
): Promise<Decision> {
  return (await applyApprovalAnswer(engine, call, answer, options)).decision;
}

/** `applyApproval`, also saying which allow rules the answer added (none for once, deny, or an answer that counted once). */
export async function applyApprovalAnswer(
  engine: PermissionEngine,
  call: unknown,
  answer: ApprovalAnswer,
  options: DecideOptions = {},
  /** A command: the sandbox it runs in once the person allows it (the allow records it, as the gate's answer does). */
  runsIn?: SandboxKind,
): Promise<{ decision: Decision; rulesAdded: string[] }> {
  const complete = (d: Decision): Decision => (d.decision === 'allow' && runsIn ? { ...d, sandbox: runsIn } : d);
  const { decision: current, context, mcp } = await engine.evaluate(call, options);
  if (current.decision !== 'ask' || (context === null && !mcp)) return { decision: current, rulesAdded: [] };
  let rulesAdded: string[] = [];
  let result: Decision;
  if (context && isUnsandboxedCall(context.tool, context.input) && answer.kind !== 'deny') {
    // Outside the sandbox is "allow once" or nothing: a session/always answer is downgraded, no rule is stored.
    const note =
      answer.kind === 'once' ? '' : ` (your "${answer.kind}" answer counts once: such approvals are never remembered)`;
    result = complete(decision('allow', 'approval', `allowed once by you, outside the OS sandbox${note}`));
    engine.record(call, result);
    return { decision: result, rulesAdded };
  }
  if (current.source === 'hard' && answer.kind !== 'deny') {
    // A hard ask (a run-time write reaching a protected folder) is "allow once" or nothing: no rule could allow it.
    const note =
      answer.kind === 'once' ? '' : ` (your "${answer.kind}" answer counts once: no rule can allow this call)`;
    result = decision('allow', 'approval', `allowed once by you${note}`);
    engine.record(call, result);
    return { decision: result, rulesAdded };
  }
  switch (answer.kind) {
    case 'once':
      result = decision('allow', 'approval', 'allowed once by you');
      break;
    case 'session':
    case 'always': {
      const rules = checkedRules(answer.rules ?? (context ? suggestRules(context) : mcp ? [mcp.name] : []));
      if (rules.length === 0) {
        // No rule covers this call (an unreadable command): there is nothing to remember, so it counts once.
        result = decision(
          'allow',
          'approval',
          `allowed once by you (your "${answer.kind}" answer counts once: no rule can describe this call)`,
        );
        break;
      }
      rulesAdded = rules;
      let where = '';
      if (answer.kind === 'always') {
        const root = engine.state.projectRoot;
        const file = localSettingsFile(root);
        for (const r of rules) await addRuleToFile(file, 'allow', r);
        const excluded = await ensureGitExcluded(root, file);
        where = `: written to .gatehouse/settings.local.yaml${excluded ? ' (now in .git/info/exclude: git ignores it)' : ''}`;
        // The local file applies from the next call (its rules then report `local`); an untrusted project's local
        // allow rules are not loaded, so there the answer also holds as a session rule.
        const trust = engine.state.options.trust;
        const trusted = await trust.isTrusted(root);
        if (!trusted) for (const r of rules) engine.state.addSessionRule('allow', r);
      } else for (const r of rules) engine.state.addSessionRule('allow', r);
      const scope = answer.kind === 'session' ? 'for this session' : 'always in this project';
      result = decision('allow', 'approval', `allowed ${scope} by you${where}`, rules.length ? rules.join(', ') : null);
      break;
    }
    case 'deny':
      result = decision('deny', 'approval', answer.note ? `denied by you: ${answer.note}` : 'denied by you');
      break;
  }
  result = complete(result);
  engine.record(call, result);
  return { decision: result, rulesAdded };
}

/** Where no person can answer (print mode, a background sub-agent), an ask becomes a deny: "approval required". */
export function withoutPerson(d: Decision): Decision {
  if (d.decision !== 'ask') return d;
  return { decision: 'deny', source: d.source, rule: d.rule, reason: `approval required: ${d.reason}` };
}
