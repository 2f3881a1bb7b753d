import { randomUUID } from 'node:crypto';
import type {
  ClassifierVerdictWire,
  DecisionAnswer,
  HookRunWire,
  ToolCallDecided,
  ToolPreview,
} from '../../shared/agent-events';
import type { AgentMode, Decision, PermissionMode, SandboxKind } from '../../shared/permission';
import { isUnsandboxedCall } from '../../shared/tools';
import type { PermissionRequest, SandboxStatus } from '../../shared/worker-protocol';
import type { DecideOptions, Evaluation, PermissionEngine } from '../permission';
import type { ApprovalAnswer } from '../permission/approvals';
import { applyApprovalAnswer, proposeRules, withoutPerson } from '../permission/approvals';
import { evaluateWithHooks, type HookRuntime } from '../hooks';
import { gateOnSandbox, SANDBOXED_TOOL, statusForCommand } from '../sandbox/sandbox-gate';
import { withSandboxKind } from '../sandbox/sandbox-kind';
import type { AutoModeState } from '../auto/auto-mode';
import { autoGate } from './auto-gate';
import { NoApproverError, type ApprovalRequest, type Approver } from './types';
import type { BackgroundAsk } from '../../shared/skills-contract';
import { unattendedDecision } from '../agents/background-ask';

export interface GateRun {
  runId: string;
  agentMode: AgentMode;
  /** The session's permission mode for this call (beats the settings, like `--mode`); unset: the engine's own. */
  mode?: PermissionMode;
  /** Aborts on cancel: a pending approval is then answered deny. */
  signal: AbortSignal;
  /** The worker's command sandbox for this run; missing while enabled: every run_command asks. */
  sandbox?: SandboxStatus | null;
  /** The Read deny rules the sandbox's hidden files were computed from (`readDenyRules`); unset: not checked. */
  readDenyRules?: ReadonlySet<string>;
  /** Runs the session's PreToolUse hooks (null: none run). */
  hooks?: HookRuntime | null;
  /** Tells the Notification hooks that a person is asked (fire and forget). */
  notify?: (message: string) => void;
  /** `subagents.backgroundAsk`: what an ask of a background sub-agent becomes (default deny). */
  backgroundAsk?: BackgroundAsk;
  /** Auto mode's classifier for this session: asked about the asks the engine marked classifiable. */
  auto?: AutoModeState | null;
}

export interface GateOutcome {
  /** What the engine (or the sandbox gate) said first. */
  engine: Decision;
  final: Decision;
  /** The person's answer, when the engine asked and someone answered. */
  answer?: DecisionAnswer;
  /** The PreToolUse hooks that ran for the call. */
  hooks?: HookRunWire[];
  /** Auto mode: what the classifier answered. */
  classifier?: ClassifierVerdictWire;
}

/**
 * The call's one decision event (`tool_call_decided`), as main emits it before answering the worker; `preview`: the
 * write's preview as the decision keeps it (storedPreview).
 */
export function decisionEvent(
  callId: string,
  outcome: GateOutcome,
  agent?: string,
  preview?: ToolPreview,
): ToolCallDecided {
  const { engine, final, answer, hooks, classifier } = outcome;
  return {
    type: 'tool_call_decided',
    id: callId,
    ...(agent ? { agent } : {}),
    allow: final.decision === 'allow',
    source: final.source,
    reason: final.decision === 'ask' ? `approval required: ${final.reason}` : final.reason,
    rule: final.rule,
    ...(final.sandbox ? { sandbox: final.sandbox } : {}),
    ...(engine.decision === 'ask'
      ? { asked: { source: engine.source, reason: engine.reason, rule: engine.rule } }
      : {}),
    ...(answer ? { answer } : {}),
    ...(hooks?.length ? { hooks } : {}),
    ...(classifier ? { classifier } : {}),
    ...(preview ? { preview } : {}),
  };
}

/** The person's answer as the event records it: the choice, the rules it added, a deny's note. */
function answered(answer: ApprovalAnswer, rulesAdded: readonly string[] = []): DecisionAnswer {
  return {
    choice: answer.kind,
    ...(rulesAdded.length ? { rules: [...rulesAdded] } : {}),
    ...(answer.kind === 'deny' && answer.note ? { note: answer.note } : {}),
  };
}

/**
 * main's answer to the worker's `permission.request`: the engine decides (and audits); an `ask` goes to the
 * person through `approve` and the answer is applied through the engine's approvals (audited too). No person,
 * no answer, a cancel or a dead worker: deny.
 */
export async function decideCall(
  engine: PermissionEngine,
  approve: Approver | null,
  runOfSession: GateRun,
  request: PermissionRequest,
  workerSignal: AbortSignal,
): Promise<GateOutcome> {
  const call = { tool: request.tool, input: request.input };
  // A sub-agent's call is judged in its agent mode (plan: read-only tools only), whatever the run's.
  const run: GateRun = request.agent?.agentMode === 'plan' ? { ...runOfSession, agentMode: 'plan' } : runOfSession;
  // The same options for the decision, the suggestions and the approval's re-evaluation (the hooks' verdict
  // included: they ran once, and a person's answer to their ask is applied against it).
  const hooked = await evaluateWithHooks(
    engine,
    run.hooks ?? null,
    call,
    { agentMode: run.agentMode, ...(run.mode ? { mode: run.mode } : {}) },
    { ...(request.callId ? { toolUseId: request.callId } : {}), signal: AbortSignal.any([run.signal, workerSignal]) },
  );
  const { evaluation, options } = hooked;
  const withHooks = (o: GateOutcome): GateOutcome => (hooked.runs.length ? { ...o, hooks: hooked.runs } : o);
  return withHooks(await gateEvaluation(engine, approve, run, request, workerSignal, evaluation, options));
}

async function gateEvaluation(
  engine: PermissionEngine,
  approve: Approver | null,
  run: GateRun,
  request: PermissionRequest,
  workerSignal: AbortSignal,
  evaluation: Evaluation,
  options: DecideOptions,
): Promise<GateOutcome> {
  // The audit log records which agent made the call (`agent`: a sub-agent's id; the engine ignores the field).
  const call = { tool: request.tool, input: request.input, ...(request.agent ? { agent: request.agent.id } : {}) };
  const engineDecision = evaluation.decision;
  // An allow is recorded once its sandbox is known (below); anything else as the engine said it.
  if (engineDecision.decision !== 'allow') engine.record(call, engineDecision);
  const rules = evaluation.context?.rules ?? (await engine.state.currentAsync(options)).rules;
  const sandbox =
    request.tool === SANDBOXED_TOOL
      ? statusForCommand(run.sandbox ?? null, run.readDenyRules, rules)
      : (run.sandbox ?? null);
  const first = gateOnSandbox(request.tool, engineDecision, sandbox);
  // Every final allow of a command says which sandbox it runs in: the worker runs it there, the log and event say so.
  const facts = {
    tool: request.tool,
    input: request.input,
    category: evaluation.context?.category ?? null,
    status: sandbox,
  };
  const label = (d: Decision): Decision => withSandboxKind(d, facts);
  if (engineDecision.decision === 'allow')
    engine.record(call, first === engineDecision ? label(first) : engineDecision);
  if (first.decision !== 'ask') return { engine: first, final: label(first) };
  if (first.source === 'unknown') {
    // The engine asks about an unknown tool (the contract), but the registry would never run it: no person is
    // asked to approve what cannot happen. It returns to the model as denied, and the denial is audited.
    const final: Decision = { decision: 'deny', source: 'unknown', rule: null, reason: first.reason };
    engine.record(call, final);
    return { engine: first, final };
  }
  const signal = AbortSignal.any([run.signal, workerSignal]);
  // Auto mode: the classifier answers an ask the engine marked classifiable (never a sandbox-gate ask) first.
  const auto = first === engineDecision ? await autoGate(run.auto ?? null, call, first, signal) : null;
  if (auto?.final) {
    const final = label(auto.final);
    engine.record(call, final);
    return { engine: first, final, classifier: auto.verdict };
  }
  const classified = auto?.verdict ? { classifier: auto.verdict } : {};
  const asked = auto?.asked ?? first;
  if (request.agent?.background) {
    // Nobody watches a background sub-agent: its asks follow subagents.backgroundAsk, never a person.
    const trusted = evaluation.context?.trusted ?? (await engine.state.currentAsync(options)).trusted;
    const continued = unattendedDecision(first, run.backgroundAsk ?? 'deny', {
      engineAsked: first === engineDecision,
      trusted,
    });
    // A command run without a person runs only inside the sandbox: without one, the continued call is denied.
    const guarded = gateOnSandbox(request.tool, continued, sandbox);
    const final = label(
      guarded.decision === 'ask' ? unattendedDecision(guarded, 'deny', { engineAsked: false, trusted }) : guarded,
    );
    engine.record(call, final);
    return { engine: first, ...classified, final };
  }
  if (!approve) {
    const final = label(auto?.headless ?? withoutPerson(asked));
    engine.record(call, final);
    return { engine: first, ...classified, final };
  }
  // An ask of our own (the engine allowed): the engine's approval path would answer its own allow, so the
  // person's answer is applied here, once, and rules "for the session" are not offered (they would not help).
  const sandboxAsk = first !== engineDecision;
  // A write whose content the person cannot see is allowed once or not at all: never remembered as a rule.
  // Likewise when an ask rule asked: no session or local allow could ever override it (ask beats allow).
  // A hard ask (a run-time write reaching a protected folder) is allowed once or not at all: no rule could allow it.
  const blind =
    request.preview?.kind === 'unpreviewable' ||
    askingRule(first) !== null ||
    first.source === 'hook' ||
    first.source === 'hard';
  run.notify?.(`Gatehouse needs your permission to use ${request.tool}`);
  // No rule to suggest (an unreadable command: `curl … | sh`) is offered only "Allow once" and "Deny" too (see
  // approvalRequest): a session or "always" answer would have nothing to keep, and applyApprovalAnswer counts it once.
  const suggested = sandboxAsk || blind ? [] : await proposeRules(engine, call, options);
  let answer: ApprovalAnswer;
  let given: ApprovalAnswer;
  try {
    given = answer = await untilAborted(
      approve(
        approvalRequest(
          run,
          request,
          asked,
          suggested,
          label({ decision: 'allow', source: 'approval', rule: null, reason: '' }).sandbox,
        ),
        signal,
      ),
      signal,
    );
    if (answer.kind === 'session' || answer.kind === 'always') {
      if (blind) answer = { kind: 'once' };
      // Offered once only: a rule a shell sent anyway is not stored (applyApprovalAnswer counts the answer once).
      else if (suggested.length === 0) answer = { kind: answer.kind };
    }
  } catch (err) {
    if (err instanceof NoApproverError) {
      const final: Decision = {
        ...withoutPerson(asked),
        reason: `approval required (${err.message}): ${asked.reason}`,
      };
      engine.record(call, final);
      return { engine: first, ...classified, final };
    }
    const why = signal.aborted
      ? 'nobody answered before the run stopped'
      : `the approval failed: ${err instanceof Error ? err.message : String(err)}`;
    const final: Decision = { decision: 'deny', source: 'approval', rule: null, reason: why };
    engine.record(call, final);
    return { engine: first, ...classified, final };
  }
  if (sandboxAsk) {
    const final = label(answerWithoutSandbox(answer));
    engine.record(call, final);
    return { engine: first, ...classified, final, answer: answered(given) };
  }
  try {
    const applied = await applyApprovalAnswer(engine, call, answer, options, label);
    return {
      engine: first,
      ...classified,
      final: label(applied.decision),
      answer: answered(given, applied.rulesAdded),
    };
  } catch (err) {
    const final: Decision = {
      decision: 'deny',
      source: 'approval',
      rule: null,
      reason: `the approval could not be applied: ${err instanceof Error ? err.message : String(err)}`,
    };
    engine.record(call, final);
    return { engine: first, ...classified, final, answer: answered(given) };
  }
}

const RULE_SOURCES: ReadonlySet<string> = new Set(['policy', 'cli', 'session', 'local', 'project', 'user']);

/** The ask rule that made the engine ask, if one did (contract "Approvals must be able to do what they offer"). */
function askingRule(asked: Decision): string | null {
  return asked.decision === 'ask' && asked.rule !== null && RULE_SOURCES.has(asked.source) ? asked.rule : null;
}

function approvalRequest(
  run: GateRun,
  request: PermissionRequest,
  asked: Decision,
  suggestedRules: string[],
  sandbox: SandboxKind | undefined,
): ApprovalRequest {
  const rule = askingRule(asked);
  return {
    requestId: randomUUID(),
    runId: run.runId,
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

/** A person's answer to a command asked about only because the sandbox is missing: this one call, nothing more. */
function answerWithoutSandbox(answer: ApprovalAnswer): Decision {
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

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
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
