import type { ApprovalChoice } from '../../../shared/approval-contract';
import type { ApprovalRequestEvent } from '../../../shared/chat-contract';
import { callTarget } from '../../../shared/tools';
import type { ApprovalAnswer, ApprovalRequest } from '../agent-runs/types';

/**
 * The most of a call's input the approval carries as text: the dialog folds long input and shows all of it on
 * request, so the cut is only for inputs no person reads whole (the command itself travels whole as the target).
 */
const MAX_SUMMARY_CHARS = 100_000;

function field(input: unknown, key: string): string | null {
  if (typeof input !== 'object' || input === null || !(key in input)) return null;
  const value = (input as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : null;
}

/** The call's input as short text; a file's content is counted, not repeated (the diff preview shows it). */
function summariseInput(tool: string, input: unknown): string {
  const content = field(input, 'content');
  if (tool === 'write_file' && content !== null) return `${field(input, 'path') ?? '?'} (${content.length} characters)`;
  let text: string;
  try {
    text = JSON.stringify(input, null, 2) ?? String(input);
  } catch {
    text = String(input);
  }
  if (text.length <= MAX_SUMMARY_CHARS) return text;
  return `${text.slice(0, MAX_SUMMARY_CHARS)}\n… ${(text.length - MAX_SUMMARY_CHARS).toLocaleString('en-US')} more characters not shown (${text.length.toLocaleString('en-US')} in all)`;
}

/** The approval dialog's view of a request the engine asked about. */
export function toApprovalEvent(request: ApprovalRequest): ApprovalRequestEvent {
  return {
    type: 'approvalRequest',
    requestId: request.requestId,
    runId: request.runId,
    ...(request.callId ? { callId: request.callId } : {}),
    tool: request.tool,
    target: callTarget(request.input),
    inputSummary: summariseInput(request.tool, request.input),
    source: request.source,
    reason: request.reason,
    ...(request.preview ? { preview: request.preview } : {}),
    suggestedRules: request.suggestedRules,
    ...(request.onceOnly ? { onceOnly: true } : {}),
    ...(request.sandbox ? { sandbox: request.sandbox } : {}),
    ...(request.position ? { position: request.position } : {}),
    ...(request.agent ? { agent: request.agent } : {}),
  };
}

/** The page's answer as the engine's approval; an edited rule replaces the suggestions. */
export function toApprovalAnswer(decision: ApprovalChoice, note?: string, rule?: string): ApprovalAnswer {
  switch (decision) {
    case 'once':
      return { kind: 'once' };
    case 'session':
    case 'always':
      return { kind: decision, ...(rule ? { rules: [rule] } : {}) };
    case 'deny':
      return { kind: 'deny', ...(note && note.trim() ? { note: note.trim() } : {}) };
  }
}
