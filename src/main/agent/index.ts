export { AgentSession } from './agent-session';
export { decideCall } from './permission-gate';
export { sandboxWarnings } from './sandbox-warnings';
export type { AgentSessionOptions, ApprovalAnswer, ApprovalRequest, Approver, PromptOptions, PromptResult, SessionEvent } from './types';
