import type { AgentMode, Decision, PermissionMode } from '../../../shared/permission';
import { isUnsandboxedCall, TOOLS } from '../../../shared/tools';
import type { EngineStateSource } from './engine-state';
import type { AuditLog } from './audit-log';
import { AnalysisCache } from './analysis-cache';
import { settle, type PrefetchedFs } from '../paths/fs-view';
import { categoryOf, commandFacts, fileFacts, type CallFacts } from './call-facts';
import type { CommandShellKind } from './command-facts';
import {
  decision,
  PASSTHROUGH,
  type CallContext,
  type EngineState,
  type HookVerdict,
  type StageAnswer,
} from './stage-types';
import { agentModeStage } from './stages/agent-mode';
import { defaultsStage } from './stages/defaults';
import { hardStage } from './stages/hard';
import { modeStage } from './stages/mode';
import { rulesStage } from './stages/rules';
import { parseCallShape, schemaStage } from './stages/schema';
import { trustStage } from './stages/trust';
import { capUnknownSettings } from './stages/unknown-settings';
import { capUnsandboxed } from './stages/unsandboxed';
import { capProtectedReach } from './stages/protected-reach';
import { isSensitiveFile } from './sensitive-files';
import { markClassifiable } from './stages/auto';
import { mcpEvaluation, type McpCall } from './stages/mcp';
import { systemEvaluation } from './stages/system';

/** Fail closed when the paths of a call could not be looked at. */
function unlookable(err: unknown): Evaluation {
  const why = err instanceof Error ? err.message : String(err);
  return { decision: decision('deny', 'hard', `could not look at the paths of this call: ${why}`), context: null };
}

export interface DecideOptions {
  /** Overrides the engine's agent mode for this call. */
  agentMode?: AgentMode;
  /** Overrides the engine's permission mode for this call. */
  mode?: PermissionMode;
  /** What the call's PreToolUse hooks said (src/main/core/hooks); judged in the engine's order. */
  hook?: HookVerdict | null;
  /** What runs run_command's command, as the worker reported it: a PowerShell command is unreadable. Absent: bash. */
  shell?: CommandShellKind;
}

/** The result of `evaluate`: the decision plus what the engine learnt about the call (for suggestions and audit). */
export interface Evaluation {
  decision: Decision;
  /** Set once the call passed the schema stage. */
  context: CallContext | null;
  /** Set for an MCP tool call (`mcp__<server>__<tool>`), which has no CallContext. */
  mcp?: McpCall;
}

/**
 * The permission engine: every tool call of every shell goes through `decide`, in the contract's order:
 * agent mode -> known tool + schema -> PreToolUse hooks (their verdict, run by the caller) -> hard checks -> rules -> defaults -> trust -> mode. Approval (stage 8) is
 * applied by the caller to an `ask` (see approvals.ts). Settings files are stat'ed on each call, so edits and
 * trust changes apply to the next call.
 */
export class PermissionEngine {
  private readonly analyses = new AnalysisCache();

  constructor(
    private readonly source: EngineStateSource,
    private readonly audit: { log: AuditLog; session: string; project?: string } | null = null,
  ) {}

  /**
   * Decides one call and appends the decision to the audit log. Settings, trust and the call's paths are read without
   * blocking (see fs-view.ts): every shell decides this way, the Electron main thread and the one-shot CLI alike.
   */
  async decide(call: unknown, options: DecideOptions = {}): Promise<Decision> {
    const result = (await this.evaluate(call, options)).decision;
    this.record(call, result);
    return result;
  }

  /** What `decide` would decide, and what the engine learnt about the call; nothing is recorded. */
  async evaluate(call: unknown, options: DecideOptions = {}): Promise<Evaluation> {
    const view = this.source.prefetchingView();
    const [state] = await Promise.all([
      this.source.current(options, view),
      this.lookAhead(view, options, (previous) => this.evaluateIn(call, previous, options)),
    ]);
    return settle(() => this.evaluateIn(call, state, options), view).catch((err: unknown) => unlookable(err));
  }

  /**
   * Evaluates several calls against one reading of the settings files and trust, and of the folders their paths
   * pass through (a batch judged at one moment, e.g. the files of a search result; their paths are fetched together);
   * nothing is recorded. Each call is judged exactly as `evaluate` would.
   */
  async evaluateAll(calls: readonly unknown[], options: DecideOptions = {}): Promise<Evaluation[]> {
    const view = this.source.prefetchingView();
    const judgeAll = (state: EngineState): Evaluation[] => calls.map((call) => this.evaluateIn(call, state, options));
    const [state] = await Promise.all([this.source.current(options, view), this.lookAhead(view, options, judgeAll)]);
    return settle(() => judgeAll(state), view).catch((err: unknown) => calls.map(() => unlookable(err)));
  }

  /**
   * While the settings files and trust are read, judges the call once in the state the previous decision read, only to
   * learn which paths it looks at, and fetches them into `view` meanwhile: the judgement that counts, in the state
   * read now, then usually finds every path it needs fetched (what else it needs is fetched as always, by `settle`).
   * Its answer is thrown away.
   */
  private lookAhead(
    view: PrefetchedFs,
    options: DecideOptions,
    judge: (previous: EngineState) => unknown,
  ): Promise<void> {
    const previous = this.source.previous(options, view);
    if (previous === null) return Promise.resolve();
    try {
      judge(previous);
    } catch {
      // only the paths it asked for matter
    }
    return view.fetchMissing();
  }

  /**
   * Resolves when the audit log has every decision recorded so far, and the last good settings seen so far are
   * written (both are written in the background).
   */
  async flushAudit(): Promise<void> {
    await Promise.all([this.audit?.log.flush(), this.state.settings.flush()]);
  }

  /** Appends a decision (the engine's, or a person's approval) to the audit log, if there is one. */
  record(call: unknown, result: Decision): void {
    if (!this.audit) return;
    const { log, session, project } = this.audit;
    log.record(project === undefined ? session : { session, project }, call, result);
  }

  private evaluateIn(call: unknown, state: EngineState, options: Pick<DecideOptions, 'hook' | 'shell'>): Evaluation {
    const hook = options.hook;
    const shape = parseCallShape(call);
    if (!shape.ok) return { decision: shape.answer, context: null };
    const system = systemEvaluation(shape.tool, shape.input, state.agentMode, hook);
    if (system !== null) return { decision: system, context: null };
    const mcp = mcpEvaluation(shape.tool, shape.input, state, hook);
    if (mcp !== null) return { decision: markClassifiable(mcp.decision, state, false), context: null, mcp: mcp.mcp };
    const agent = agentModeStage(shape.tool, state.agentMode);
    if (agent !== PASSTHROUGH) return { decision: agent, context: null };
    const schema = schemaStage(shape.tool, shape.input);
    if (!schema.ok) return { decision: schema.answer, context: null };
    // PreToolUse hooks come next (they ran on this valid call): a hook's deny denies before anything else.
    if (hook?.decision === 'deny')
      return { decision: decision('deny', 'hook', hook.reason, hook.hooks), context: null };
    let facts: CallFacts;
    try {
      facts =
        schema.tool === 'run_command'
          ? commandFacts(String(schema.input.command), state.confinement, {
              trusted: state.trusted,
              treeFileMatters: (abs) =>
                isSensitiveFile(abs, state.confinement.sys) ||
                state.rules.matchPath('read_file', 'deny', [abs]) !== null ||
                state.rules.matchPath('read_file', 'ask', [abs]) !== null,
              analyses: this.analyses,
              ...(options.shell ? { shell: options.shell } : {}),
            })
          : fileFacts(schema.tool, schema.input, state.confinement);
    } catch (err) {
      // Fail closed: a call the engine cannot analyse is never let through (and cannot be approved).
      const why = err instanceof Error ? err.message : String(err);
      return {
        decision: decision('deny', 'hard', `could not analyse this call (internal error: ${why})`),
        context: null,
      };
    }
    const context: CallContext = {
      ...state,
      tool: schema.tool,
      input: schema.input,
      facts,
      category: categoryOf(schema.tool, facts, TOOLS[schema.tool].category),
      explicitlyAllowed: new Set(),
      hookAllow: hook?.decision === 'allow' ? hook : null,
    };
    const stages: ((ctx: CallContext) => StageAnswer)[] = [hardStage, rulesStage, defaultsStage, trustStage];
    let answer: StageAnswer = PASSTHROUGH;
    for (const stage of stages) {
      answer = stage(context);
      if (answer !== PASSTHROUGH) break;
    }
    // A command asked to run outside the OS sandbox is only ever allowed by a person, once; so is one whose run-time
    // writes reach a self-protected folder. A broken settings file whose rules were never known lets nothing through
    // without a person.
    const uncapped = capUnsandboxed(answer === PASSTHROUGH ? modeStage(context) : answer, context);
    const reach = capProtectedReach(uncapped, context);
    const reachCapped = reach !== uncapped;
    const capped = markClassifiable(
      capUnknownSettings(reach, context),
      context,
      isUnsandboxedCall(context.tool, context.input) ||
        (facts.kind === 'command' && !facts.analysis.readable) ||
        reachCapped,
    );
    // A hook's ask asks even where rules or the mode allow; only a deny beats it (and the protected-reach ask, which
    // already asks a person and says why).
    if (hook?.decision === 'ask' && capped.decision !== 'deny' && !reachCapped)
      return { decision: decision('ask', 'hook', hook.reason, hook.hooks), context };
    return { decision: capped, context };
  }

  /** The source of rules, settings and state (for `rules list`, approvals and the rules editor). */
  get state(): EngineStateSource {
    return this.source;
  }
}
