// The chat with the agent and its approval dialog. Mount <ChatPanel /> once in the app.
export { ChatPanel } from './ChatPanel';
export { ApprovalDialog } from './ApprovalDialog';
export type { ApprovalAnswerInput, ApprovalDialogProps } from './ApprovalDialog';
export { DiffView, parseUnifiedDiff } from './DiffView';
export { Markdown } from './Markdown';
export { applyChatEvent, useChat } from './chat-store';
export { SessionList } from './SessionList';
import './chat.css';
