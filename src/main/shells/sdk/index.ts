import type { ApprovalChoice } from '../../../shared/approval-contract';
import type { AgentMode, PermissionMode, RuleBehavior } from '../../../shared/permission';
import { AgentSession } from '../../services/agent-runs/agent-session';
import { resolveModelConfig } from '../../services/agent-runs/model-config';
import { readUserModelSettings } from '../../services/agent-runs/model-settings';
import type {
  ApprovalAnswer,
  ApprovalRequest,
  Approver,
  PromptOptions,
  PromptResult,
  SessionEvent,
} from '../../services/agent-runs/types';
import { userConfigDir } from '../../core/fs/config-dir';
import { createNodeWorkerHost } from '../../services/worker-host/node-worker-host';
import { EventStream } from './event-stream';

export type { ApprovalAnswer, ApprovalRequest, PromptResult, SessionEvent } from '../../services/agent-runs/types';
export type { AgentEvent } from '../../../shared/agent-events';
export type { CheckpointDiff, CheckpointEntry, RestoreResult } from '../../../shared/checkpoint-contract';
import type { CheckpointDiff, CheckpointEntry, RestoreResult } from '../../../shared/checkpoint-contract';
export { DEFAULT_MODEL } from '../../services/agent-runs/model-config';

/** What the `approve` callback may answer: a shorthand, or the full answer (with a deny note or edited rules). */
export type ApprovalDecision = ApprovalChoice | ApprovalAnswer;

export interface CreateSessionOptions {
  /** The project folder. */
  project: string;
  mode?: PermissionMode;
  agentMode?: AgentMode;
  /** Default: ANTHROPIC_MODEL, else DEFAULT_MODEL. */
  model?: string;
  /** Default: ANTHROPIC_API_KEY. Handed to the worker over its port, never through its environment. */
  apiKey?: string;
  /** Default: ANTHROPIC_BASE_URL, else the Anthropic API. */
  baseURL?: string;
  /** Answers the calls the engine asks about. Without it, an ask is denied "approval required". */
  approve?: (request: ApprovalRequest) => ApprovalDecision | Promise<ApprovalDecision>;
  /** This session's rules, like `--allow/--ask/--deny`. */
  rules?: Partial<Record<RuleBehavior, string[]>>;
  maxTurns?: number;
  /** A session id to continue. */
  resume?: string;
  /** Default: the user config directory (GATEHOUSE_HOME). */
  configDir?: string;
  env?: NodeJS.ProcessEnv;
}

/** A running prompt: await it for the result, or iterate `events` as they come. */
export type PromptRun = Promise<PromptResult> & { events: AsyncIterable<SessionEvent> };

export interface GatehouseSession {
  readonly id: string;
  readonly projectRoot: string;
  prompt(text: string, options?: Omit<PromptOptions, 'onEvent'>): PromptRun;
  onEvent(listener: (event: SessionEvent) => void): () => void;
  cancel(): Promise<boolean>;
  close(): Promise<void>;
  /** The project's checkpoints (one before each prompt that may change files): list, diff, restore (audited). */
  readonly checkpoints: {
    list(): Promise<CheckpointEntry[]>;
    diff(id: string): Promise<CheckpointDiff>;
    restore(id: string, options?: { overwriteExternal?: boolean }): Promise<RestoreResult>;
  };
}

/** `import { createSession } from 'gatehouse'`: the agent, the permission engine and a transcript, headless. */
export async function createSession(options: CreateSessionOptions): Promise<GatehouseSession> {
  const env = options.env ?? process.env;
  const configDir = options.configDir ?? userConfigDir(env);
  // The user's own settings.yaml `model:` block is the last resort (a malformed block is ignored).
  const config = resolveModelConfig(
    env,
    {
      ...(options.model !== undefined ? { model: options.model } : {}),
      ...(options.apiKey !== undefined ? { apiKey: options.apiKey } : {}),
      ...(options.baseURL !== undefined ? { baseURL: options.baseURL } : {}),
    },
    (await readUserModelSettings(configDir)).settings,
  );
  const host = createNodeWorkerHost({ configDir, env });
  const behaviors: RuleBehavior[] = ['allow', 'ask', 'deny'];
  const session = await AgentSession.open({
    host,
    configDir,
    env,
    project: options.project,
    model: config.model,
    provider: config.provider,
    approve: options.approve ? adaptApprove(options.approve) : null,
    cliRules: behaviors.flatMap((behavior) => (options.rules?.[behavior] ?? []).map((rule) => ({ behavior, rule }))),
    ...(options.mode ? { mode: options.mode } : {}),
    ...(options.agentMode ? { agentMode: options.agentMode } : {}),
    ...(options.maxTurns ? { maxTurns: options.maxTurns } : {}),
    ...(options.resume ? { resume: options.resume } : {}),
  }).catch(async (err: unknown) => {
    await host.stop();
    throw err;
  });
  return {
    id: session.id,
    projectRoot: session.projectRoot,
    prompt(text, promptOptions = {}) {
      const events = new EventStream<SessionEvent>();
      const done = session
        .prompt(text, { ...promptOptions, onEvent: (e) => events.push(e) })
        .finally(() => events.end());
      return Object.assign(done, { events });
    },
    onEvent: (listener) => session.onEvent(listener),
    cancel: () => session.cancel(),
    close: () => session.close(),
    checkpoints: {
      list: () => session.checkpoints.list(),
      diff: (id) => session.checkpoints.diff(id),
      restore: (id, restoreOptions) => session.checkpoints.restore(id, restoreOptions),
    },
  };
}

function adaptApprove(approve: NonNullable<CreateSessionOptions['approve']>): Approver {
  return async (request) => {
    const answer = await approve(request);
    return typeof answer === 'string' ? { kind: answer } : answer;
  };
}
