/**
 * The decision path: main's answer to the worker's `permission.request`, as one ordered list of stages
 * (docs/permission-model.md, "The order of evaluation"). Each stage takes the call and what the stages before it
 * learnt, and returns that with its own part filled in; the stage that settles the call sets `final` and the
 * runner stops there. Every stage calls down into the module that owns its step and never back up.
 */
import type { ClassifierVerdictWire, DecisionAnswer, HookRunWire } from '../../../shared/agent-events';
import type { AgentMode, Decision, PermissionMode } from '../../../shared/permission';
import type { BackgroundAsk } from '../../../shared/skills-contract';
import type { PermissionRequest, SandboxStatus } from '../../../shared/worker-protocol';
import { unattendedDecision } from '../agents/background-ask';
import type { AutoModeState } from '../auto/auto-mode';
import { runPreToolUse } from '../hooks/pre-tool-use';
import { type HookRuntime } from '../hooks/hook-runtime';
import type { DecideOptions, Evaluation, PermissionEngine } from '../permission/engine';
import {
  answered,
  answerWithoutSandbox,
  applyApprovalAnswer,
  approvalRequest,
  askApprover,
  keptAnswer,
  onceOnly,
  proposeRules,
  unanswered,
  withoutPerson,
  type ApprovalAnswer,
  type Approver,
} from '../permission/approvals';
import { askWithoutSandbox, commandShellOf, SANDBOXED_TOOL, statusForCommand } from '../sandbox/sandbox-gate';
import { withSandboxKind } from '../sandbox/sandbox-kind';

/** The stages in the order the contract gives them: the first to settle a call decides it. */
const STAGES = [hooks, engine, sandboxCap, auto, backgroundPolicy, person] as const satisfies readonly Stage[];

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

/** The call and what its run gives every stage; no stage changes it. */
interface GateCall {
  engine: PermissionEngine;
  approve: Approver | null;
  run: GateRun;
  request: PermissionRequest;
  /** The call as the engine judges it. */
  judged: { tool: string; input: unknown };
  /** The call as the audit log records it (`agent`: a sub-agent's id; the engine ignores the field). */
  audited: { tool: string; input: unknown; agent?: string };
  /** Aborts on the run's cancel or the worker's death. */
  signal: AbortSignal;
}

/** What the stages learnt so far: each returns it with its own part filled in. */
interface GateState {
  /** The engine's options for the call: agent and session mode, then the PreToolUse hooks' verdict. */
  options: DecideOptions;
  /** The PreToolUse hooks that ran. */
  hooks: HookRunWire[];
  /** The engine's evaluation: without the hooks' say after `hooks`, with it after `engine`. */
  evaluation: Evaluation | null;
  /** What the engine said, capped by the sandbox: the outcome's `engine` (what was asked). */
  engineSaid: Decision;
  /** The decision so far: the ask the person sees carries auto mode's block or fallback in its reason. */
  decision: Decision;
  /** The sandbox cap turned the engine's allow into an ask: the classifier never sees it, a person allows it once. */
  capped: boolean;
  /** The sandbox this call's command runs in (null: not known). */
  sandbox: SandboxStatus | null;
  /** The ask that replaces an allow of this call while no sandbox holds it; null: an allow stands. */
  noSandboxAsk: Decision | null;
  /** Where nobody can answer: auto mode's deny naming the classifier (else the ask is denied "approval required"). */
  unattended?: Decision;
  classifier?: ClassifierVerdictWire;
  answer?: DecisionAnswer;
  /** Set by the stage that settles the call: the runner stops there. */
  final?: Decision;
}

type Stage = (call: GateCall, state: GateState) => Promise<GateState>;

/** Fail closed: the state before any stage spoke, and the answer if none settled the call. */
const UNDECIDED: Decision = {
  decision: 'deny',
  source: 'hard',
  rule: null,
  reason: 'no stage of the decision path decided this call',
};

/**
 * main's answer to the worker's `permission.request`: the stages in order (each audits what it settles). No person,
 * no answer, a cancel or a dead worker: deny.
 */
export async function decideCall(
  engine: PermissionEngine,
  approve: Approver | null,
  runOfSession: GateRun,
  request: PermissionRequest,
  workerSignal: AbortSignal,
): Promise<GateOutcome> {
  // A sub-agent's call is judged in its agent mode (plan: read-only tools only), whatever the run's.
  const run: GateRun = request.agent?.agentMode === 'plan' ? { ...runOfSession, agentMode: 'plan' } : runOfSession;
  const judged = { tool: request.tool, input: request.input };
  const call: GateCall = {
    engine,
    approve,
    run,
    request,
    judged,
    audited: { ...judged, ...(request.agent ? { agent: request.agent.id } : {}) },
    signal: AbortSignal.any([run.signal, workerSignal]),
  };
  // A command PowerShell runs is judged as one: unreadable.
  const powerShell = commandShellOf(run.sandbox) === 'powershell';
  let state: GateState = {
    options: {
      agentMode: run.agentMode,
      ...(run.mode ? { mode: run.mode } : {}),
      ...(powerShell ? { shell: 'powershell' } : {}),
    },
    hooks: [],
    evaluation: null,
    engineSaid: UNDECIDED,
    decision: UNDECIDED,
    capped: false,
    sandbox: run.sandbox ?? null,
    noSandboxAsk: null,
  };
  for (const stage of STAGES) {
    state = await stage(call, state);
    if (state.final) break;
  }
  const { engineSaid, final = UNDECIDED, answer, classifier } = state;
  return {
    engine: engineSaid,
    ...(classifier ? { classifier } : {}),
    final,
    ...(answer ? { answer } : {}),
    ...(state.hooks.length ? { hooks: state.hooks } : {}),
  };
}

/**
 * The call's PreToolUse hooks, once the engine found it a known tool with valid input in its agent mode. Their
 * verdict joins the options: the engine judges with it, and a person's answer is applied against it (they run once).
 */
async function hooks(call: GateCall, state: GateState): Promise<GateState> {
  const { request, run } = call;
  const pre = await runPreToolUse(call.engine, run.hooks ?? null, call.judged, state.options, {
    ...(request.callId ? { toolUseId: request.callId } : {}),
    signal: call.signal,
  });
  const options = pre.verdict ? { ...state.options, hook: pre.verdict } : state.options;
  return { ...state, options, evaluation: pre.evaluation, hooks: pre.runs };
}

/** The engine: hard checks, rules, defaults, trust and mode, with the hooks' say (src/main/core/permission/engine.ts). */
async function engine(call: GateCall, state: GateState): Promise<GateState> {
  const evaluation =
    state.evaluation === null || state.options.hook
      ? await call.engine.evaluate(call.judged, state.options)
      : state.evaluation;
  const said = evaluation.decision;
  const next: GateState = { ...state, evaluation, engineSaid: said, decision: said };
  // An allow is recorded once its sandbox is known (the next stage); anything else as the engine said it.
  if (said.decision !== 'allow') call.engine.record(call.audited, said);
  if (said.decision === 'deny') return { ...next, final: said };
  if (said.decision === 'ask' && said.source === 'unknown') {
    // The engine asks about an unknown tool (the contract), but the registry would never run it: no person is
    // asked to approve what cannot happen. It returns to the model as denied, and the denial is audited.
    return settle(call, next, { decision: 'deny', source: 'unknown', rule: null, reason: said.reason });
  }
  return next;
}

/**
 * Without a working OS sandbox no command runs without a person: the engine's allow of a run_command becomes an
 * ask. Any other allow settles the call, labelled with the sandbox it runs in.
 */
async function sandboxCap(call: GateCall, state: GateState): Promise<GateState> {
  const { engine, run, request } = call;
  const sandbox =
    request.tool === SANDBOXED_TOOL
      ? statusForCommand(
          run.sandbox ?? null,
          run.readDenyRules,
          state.evaluation?.context?.rules ?? (await engine.state.current(state.options)).rules,
        )
      : state.sandbox;
  const cap = askWithoutSandbox(request.tool, sandbox);
  const next: GateState = { ...state, sandbox, noSandboxAsk: cap };
  const said = state.engineSaid;
  if (said.decision !== 'allow') return next;
  if (cap !== null) {
    engine.record(call.audited, said);
    return { ...next, engineSaid: cap, decision: cap, capped: true };
  }
  return settle(call, next, labelled(call, next, said));
}

/**
 * Auto mode: the classifier answers an ask the engine itself marked `classifiable` (the mode's or the defaults' ask
 * in auto mode, in a trusted project; never the sandbox cap's) before any person. Its block goes to the person.
 */
async function auto(call: GateCall, state: GateState): Promise<GateState> {
  const asked = state.decision;
  const classifier = call.run.auto ?? null;
  if (classifier === null || state.capped || asked.decision !== 'ask' || asked.classifiable !== true) return state;
  const outcome = await classifier.judge({ ...call.audited, asked: asked.reason }, call.signal);
  if (outcome.kind === 'manual')
    return { ...state, decision: { ...asked, reason: `${asked.reason} (${outcome.reason})` } };
  const verdict = outcome.verdict;
  if (outcome.kind === 'allow') {
    const reason = `allowed by the auto-mode classifier: ${verdict.reason}`;
    const allowed: Decision = { decision: 'allow', source: 'auto', rule: null, reason };
    return settle(call, { ...state, classifier: verdict }, labelled(call, state, allowed));
  }
  const blocked = `the auto-mode classifier blocked it: ${verdict.reason}`;
  return {
    ...state,
    classifier: verdict,
    decision: { ...asked, reason: `${asked.reason}; ${blocked}` },
    unattended: { decision: 'deny', source: 'auto', rule: null, reason: `${blocked} (nobody can approve it here)` },
  };
}

/**
 * Nobody watches a background sub-agent: its ask follows `subagents.backgroundAsk`, never a person. A command run
 * without a person runs only inside the sandbox: without one, the continued call is denied.
 */
async function backgroundPolicy(call: GateCall, state: GateState): Promise<GateState> {
  if (!call.request.agent?.background) return state;
  const trusted = state.evaluation?.context?.trusted ?? (await call.engine.state.current(state.options)).trusted;
  const policy = call.run.backgroundAsk ?? 'deny';
  const continued = unattendedDecision(state.engineSaid, policy, { engineAsked: !state.capped, trusted });
  const final =
    continued.decision === 'allow' && state.noSandboxAsk !== null
      ? unattendedDecision(state.noSandboxAsk, 'deny', { engineAsked: false, trusted })
      : continued;
  return settle(call, state, labelled(call, state, final));
}

/**
 * The person, last: they see the ask (and the rules that would remember their answer) and answer it. Their answer
 * is applied through the engine's approvals, which judge the call again first. Nobody to ask: denied.
 */
async function person(call: GateCall, state: GateState): Promise<GateState> {
  const { engine, approve, request, run, signal } = call;
  if (approve === null)
    return settle(call, state, labelled(call, state, state.unattended ?? withoutPerson(state.decision)));
  const once = onceOnly(request, state.engineSaid);
  run.notify?.(`Gatehouse needs your permission to use ${request.tool}`);
  // No rule to suggest (an unreadable command: `curl … | sh`) is offered only "Allow once" and "Deny" too: a
  // session or "always" answer would have nothing to keep, and applyApprovalAnswer counts it once. Nor is one
  // offered for the sandbox cap's ask, whose answer holds for this call only.
  const suggested = state.capped || once ? [] : await proposeRules(engine, call.audited, state.options);
  const runsIn = labelled(call, state, { decision: 'allow', source: 'approval', rule: null, reason: '' }).sandbox;
  let given: ApprovalAnswer;
  try {
    given = await askApprover(approve, approvalRequest(run.runId, request, state.decision, suggested, runsIn), signal);
  } catch (err) {
    return settle(call, state, unanswered(err, state.decision, signal));
  }
  const answer = keptAnswer(given, once, suggested);
  if (state.capped) {
    return settle(call, { ...state, answer: answered(given) }, labelled(call, state, answerWithoutSandbox(answer)));
  }
  try {
    const applied = await applyApprovalAnswer(engine, call.audited, answer, state.options, runsIn);
    // Applied and audited by the approvals (with the sandbox the command runs in).
    const final = labelled(call, state, applied.decision);
    return { ...state, final, answer: answered(given, applied.rulesAdded) };
  } catch (err) {
    const reason = `the approval could not be applied: ${err instanceof Error ? err.message : String(err)}`;
    const denied: Decision = { decision: 'deny', source: 'approval', rule: null, reason };
    return settle(call, { ...state, answer: answered(given) }, denied);
  }
}

/** Settles the call with `final`, audited. */
function settle(call: GateCall, state: GateState, final: Decision): GateState {
  call.engine.record(call.audited, final);
  return { ...state, final };
}

/** Every final allow of a command says which sandbox it runs in: the worker runs it there, the log and event say so. */
function labelled(call: GateCall, state: GateState, d: Decision): Decision {
  const { tool, input } = call.judged;
  const category = state.evaluation?.context?.category ?? null;
  return withSandboxKind(d, { tool, input, category, status: state.sandbox });
}
