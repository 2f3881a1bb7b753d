import { useEffect, useState } from 'react';
import { unpreviewableSummary } from '../../../shared/agent-events';
import type { ApprovalRequestEvent } from '../../../shared/chat-contract';
import { parseMcpToolName } from '../../../shared/mcp-contract';
import { SANDBOX_KIND_LABELS } from '../../../shared/permission';
import { LongText } from '../display/LongText';
import { MarkWarning } from '../display/MarkWarning';
import { Shown } from '../display/Shown';
import type { MarkedText } from '../display/MarkWarning';
import { DiffView } from './DiffView';

/** How long answers stay inert after a dialog appears or its call changes: a click meant for the last one lands nowhere. */
const ARMING_MS = 500;
/** Lines of the input shown before "Show all". */
const INPUT_LINES = 30;

/**
 * False for ARMING_MS after mount and after `key` changes, then true: the answer buttons and shortcuts wait for it,
 * so a double click or a repeated shortcut never answers a call the person has not seen.
 */
export function useArmed(key: string): boolean {
  const [armed, setArmed] = useState<string | null>(null);
  useEffect(() => {
    const timer = setTimeout(() => setArmed(key), ARMING_MS);
    return () => clearTimeout(timer);
  }, [key]);
  return armed === key;
}

/** "call 1 of 2 in this turn · 1 of 3 waiting": where this call sits, so a new dialog never looks like the last one. */
export function approvalCounter(request: ApprovalRequestEvent, position: number, total: number): string | null {
  const parts: string[] = [];
  if (request.position && request.position.count > 1)
    parts.push(`call ${request.position.index} of ${request.position.count} in this turn`);
  if (total > 1) parts.push(`${position} of ${total} waiting`);
  return parts.length ? parts.join(' · ') : null;
}

/**
 * The untrusted texts the dialog shows, each once, for the warning at its top: the target, why, the diff (or the
 * input, when there is no target it would repeat), the rule.
 */
function approvalTexts(request: ApprovalRequestEvent, rule: string): MarkedText[] {
  const body =
    request.preview?.kind === 'diff' ? request.preview.unifiedDiff : request.target ? '' : request.inputSummary;
  return [
    { text: request.target, strict: true },
    { text: request.reason },
    { text: body },
    { text: rule, strict: true },
  ];
}

/** The top of the dialog: the hidden-character warning and, for a write nobody can preview, that fact first. */
export function ApprovalWarnings({ request, rule }: { request: ApprovalRequestEvent; rule: string }) {
  return (
    <>
      <MarkWarning texts={approvalTexts(request, rule)} subject="This call" />
      {request.preview?.kind === 'unpreviewable' ? (
        <div className="approval-blind" role="alert" data-testid="approval-unpreviewable">
          <p>
            <strong>{'No preview: '}</strong>
            <Shown text={request.preview.path} strict lines="inline" as="code" />
          </p>
          <p>
            <Shown text={unpreviewableSummary(request.preview)} />
          </p>
          <p>{'Only "Allow once" or "Deny": a write you cannot see is never remembered as a rule.'}</p>
        </div>
      ) : null}
    </>
  );
}

/** Tool, target (numbered lines when it has several), why the engine asks. */
export function ApprovalFacts({ request }: { request: ApprovalRequestEvent }) {
  const lines = request.target.split('\n').length;
  const mcp = parseMcpToolName(request.tool);
  return (
    <dl className="approval-facts">
      <dt>Tool</dt>
      <dd>
        <Shown text={request.tool} strict lines="inline" as="code" />
      </dd>
      {mcp ? (
        <>
          <dt>MCP server</dt>
          <dd data-testid="approval-mcp-server">
            <Shown text={mcp.server} strict lines="inline" as="code" />
          </dd>
          <dt>Its tool</dt>
          <dd data-testid="approval-mcp-tool">
            <Shown text={mcp.tool} strict lines="inline" as="code" />{' '}
            <span className="muted">(the arguments are below; the server&apos;s description never decides)</span>
          </dd>
        </>
      ) : null}
      {request.target ? (
        <>
          <dt>{lines > 1 ? <Shown text={`Target (${lines} lines)`} /> : 'Target'}</dt>
          <dd className="approval-target">
            <Shown text={request.target} strict lines="numbered" as="code" data-testid="approval-target" />
          </dd>
        </>
      ) : null}
      <dt>Why you are asked</dt>
      <dd data-testid="approval-reason">
        <Shown text={request.reason} /> <Shown className="muted" text={`(${request.source})`} />
      </dd>
      {request.sandbox ? (
        <>
          <dt>If you allow it</dt>
          <dd data-testid="approval-sandbox">
            <Shown text={`runs in: ${SANDBOX_KIND_LABELS[request.sandbox]}`} lines="inline" />
          </dd>
        </>
      ) : null}
    </dl>
  );
}

/** The diff of a write, or the call's input (long input folded, with how much is hidden). */
export function ApprovalPreview({ request }: { request: ApprovalRequestEvent }) {
  if (request.preview?.kind === 'diff')
    return <DiffView path={request.preview.path} diff={request.preview.unifiedDiff} />;
  return (
    <pre className="approval-input" data-testid="approval-input">
      <LongText text={request.inputSummary} maxLines={INPUT_LINES} />
    </pre>
  );
}
