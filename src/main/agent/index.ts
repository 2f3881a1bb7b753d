export { AgentSession } from './agent-session';
export { decideCall } from './permission-gate';
export type {
  AgentSessionOptions,
  ApprovalAnswer,
  ApprovalRequest,
  Approver,
  PromptOptions,
  PromptResult,
  SessionEvent,
} from './types';
