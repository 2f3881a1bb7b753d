import type { AgentEvent, AgentRunStatus, AutoRunStats } from '../../../shared/agent-events';
import type { TokenUsage } from '../../../shared/conversation';
import type { RpcError } from '../../../shared/errors';
import type { AgentMode, PermissionMode } from '../../../shared/permission';
import type { Approver } from '../../core/permission/approvals';
import type { TrustOracle } from '../../core/permission/trust-oracle';
import type { RuleText } from '../../core/settings/settings-store';
import type { WorkerHost } from '../../core/worker-host-types';

export type { ApprovalAnswer } from '../../core/permission/approvals';
export type { ApprovalRequest } from '../../../shared/approval-contract';

export { NoApproverError, type Approver } from '../../core/permission/approvals';

/**
 * What a session reports while a prompt runs: the agent's events, each call's one `tool_call_decided` among them
 * (main's gate inserts it for every call the engine judged, after the person's answer if it asked).
 */
export type SessionEvent = { type: 'agent'; runId: string; event: AgentEvent };

export interface PromptResult {
  sessionId: string;
  runId: string;
  status: AgentRunStatus;
  finalText: string;
  usage: TokenUsage;
  turns: number;
  error?: RpcError;
  /** Auto mode: what the classifier cost in this run (absent when it was not asked). */
  auto?: AutoRunStats;
}

export interface PromptOptions {
  agentMode?: AgentMode;
  /** do mode: the confirmed plan. */
  plan?: string;
  maxTurns?: number;
  onEvent?: (event: SessionEvent) => void;
}

export interface AgentSessionOptions {
  host: WorkerHost;
  configDir: string;
  env: NodeJS.ProcessEnv;
  /** The project folder; with `resume`, defaults to the session's. */
  project?: string;
  additionalDirectories?: string[];
  mode?: PermissionMode;
  /**
   * Asked before every call: the permission mode the shell chose for this session (the chat's mode selector), which
   * beats `mode` and the settings; undefined: none.
   */
  sessionMode?: () => Promise<PermissionMode | undefined>;
  agentMode?: AgentMode;
  model: string;
  /** Asked before every prompt: the model and key to use now (the app's Settings page can change them); undefined: `model` / `provider`. */
  modelConfig?: () => { model: string; provider: { apiKey: string; baseURL?: string } } | undefined;
  maxTurns?: number;
  cliRules?: readonly RuleText[];
  provider: { apiKey: string; baseURL?: string };
  /** null: nobody can answer, so an ask is denied with "approval required". */
  approve: Approver | null;
  /** A session id to continue. */
  resume?: string;
  /** Defaults to the user's TrustStore. */
  trust?: TrustOracle;
}
