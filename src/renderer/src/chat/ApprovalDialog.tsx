import { useEffect, useId, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { ModalDialog } from '../app/ModalDialog';
import { unpreviewableSummary } from '../../../shared/agent-events';
import type { ApprovalChoice, ApprovalRequestEvent } from '../../../shared/chat-contract';
import { DiffView } from './DiffView';
import { ariaShortcut, shortcutAction, ShortcutLabel } from './approval-shortcuts';
import type { ApprovalAction } from './approval-shortcuts';

export interface ApprovalAnswerInput {
  decision: ApprovalChoice;
  note?: string;
  rule?: string;
}

export interface ApprovalDialogProps {
  request: ApprovalRequestEvent;
  /** 1-based position in the queue, and its length. */
  position: number;
  total: number;
  busy: boolean;
  onAnswer(answer: ApprovalAnswerInput): void;
}

/**
 * The approval prompt for one call the engine asked about: tool, target, why, the diff for a write/edit, and the
 * four answers. Focus starts on "Deny" and stays inside; Escape answers Deny.
 */
export function ApprovalDialog({ request, position, total, busy, onAnswer }: ApprovalDialogProps) {
  const denyRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const ruleId = useId();
  const noteId = useId();
  const suggested = request.suggestedRules.join(', ');
  const [rule, setRule] = useState(suggested);
  const [note, setNote] = useState('');

  useEffect(() => {
    setRule(request.suggestedRules.join(', '));
    setNote('');
    denyRef.current?.focus();
  }, [request.requestId, request.suggestedRules]);

  /** An edited rule replaces the suggestions; unchanged, main uses its own suggestions. */
  const editedRule = (): string | undefined => (rule.trim() && rule.trim() !== suggested ? rule.trim() : undefined);
  const deny = () => onAnswer({ decision: 'deny', ...(note.trim() ? { note: note.trim() } : {}) });

  const answers: Record<ApprovalAction, () => void> = {
    once: () => onAnswer({ decision: 'once' }),
    session: () => onAnswer({ decision: 'session', ...optional(editedRule()) }),
    always: () => onAnswer({ decision: 'always', ...optional(editedRule()) }),
    deny,
  };
  /** Alt + a button's underlined letter answers, for the buttons shown only. */
  const shown: ApprovalAction[] = request.onceOnly ? ['once', 'deny'] : ['once', 'session', 'always', 'deny'];
  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    const action = shortcutAction(event, shown);
    if (action) {
      event.preventDefault();
      if (!busy) answers[action]();
    }
  };
  const keys = (action: ApprovalAction) => ({ 'aria-keyshortcuts': ariaShortcut(action), title: ariaShortcut(action).replace(' ', ' or ') });

  return (
    <ModalDialog
      className="approval-dialog"
      titleId={titleId}
      onKeyDown={onKeyDown}
      onCancel={() => {
        if (!busy) deny();
      }}
    >
      <h2 id={titleId}>
        Allow <code>{request.tool}</code>?{total > 1 ? <span className="approval-count"> {`${position} of ${total}`}</span> : null}
      </h2>
      <dl className="approval-facts">
        <dt>Tool</dt>
        <dd>
          <code>{request.tool}</code>
        </dd>
        {request.target ? (
          <>
            <dt>Target</dt>
            <dd>
              <code data-testid="approval-target">{request.target}</code>
            </dd>
          </>
        ) : null}
        <dt>Why you are asked</dt>
        <dd data-testid="approval-reason">
          {request.reason} <span className="muted">({request.source})</span>
        </dd>
      </dl>
      {request.preview?.kind === 'diff' ? (
        <DiffView path={request.preview.path} diff={request.preview.unifiedDiff} />
      ) : (
        <pre className="approval-input">{request.inputSummary}</pre>
      )}
      {request.preview?.kind === 'unpreviewable' ? (
        <p className="error" data-testid="approval-unpreviewable">
          {unpreviewableSummary(request.preview)}
        </p>
      ) : request.onceOnly ? (
        <p className="error" data-testid="approval-unsandboxed">
          Runs outside the sandbox: it can write anywhere, read your secrets and use the network.
        </p>
      ) : null}
      <div className="approval-fields">
        {request.onceOnly ? null : (
          <>
            <label htmlFor={ruleId}>Rule</label>
            <input id={ruleId} type="text" value={rule} onChange={(e) => setRule(e.target.value)} spellCheck={false} disabled={busy} />
          </>
        )}
        <label htmlFor={noteId}>Note to the model</label>
        <input id={noteId} type="text" value={note} onChange={(e) => setNote(e.target.value)} placeholder="optional, sent with Deny" disabled={busy} />
      </div>
      <div className="approval-actions">
        <button type="button" className="secondary" disabled={busy} onClick={answers.once} {...keys('once')}>
          <ShortcutLabel text="Allow once" action="once" />
        </button>
        {request.onceOnly ? null : (
          <>
            <button type="button" className="secondary" disabled={busy} onClick={answers.session} {...keys('session')}>
              <ShortcutLabel text="Allow for session" action="session" />
            </button>
            <button type="button" className="secondary" disabled={busy} onClick={answers.always} {...keys('always')}>
              <ShortcutLabel text="Always allow in this project" action="always" />
            </button>
          </>
        )}
        <button type="button" ref={denyRef} className="primary" disabled={busy} onClick={deny} {...keys('deny')}>
          <ShortcutLabel text="Deny" action="deny" />
        </button>
      </div>
      <p className="approval-keys muted" aria-hidden="true">
        <kbd>Alt</kbd> + underlined letter answers · <kbd>Esc</kbd> denies
      </p>
    </ModalDialog>
  );
}

function optional(rule: string | undefined): { rule?: string } {
  return rule ? { rule } : {};
}
