import { useEffect, useId, useRef, useState } from 'react';
import type { KeyboardEvent, RefObject } from 'react';
import { ModalDialog } from '../app/ModalDialog';
import type { ApprovalChoice } from '../../../shared/approval-contract';
import type { ApprovalRequestEvent } from '../../../shared/chat-contract';
import { Shown, shownText } from '../display/Shown';
import { summariseMarks } from '../../../shared/visible-text';
import { approvalCounter, ApprovalFacts, ApprovalPreview, ApprovalWarnings, useArmed } from './approval-parts';
import { useRuleValidation } from '../rules/use-rule-validation';
import { ariaShortcut, shortcutAction, ShortcutLabel } from './approval-shortcuts';

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
 * The approval prompt for one call the engine asked about: where it sits ("call 1 of 2"), warnings (hidden
 * characters, a write that cannot be previewed), tool, target, why, the diff or input, and the answers. Every
 * untrusted text shows its hidden characters. Focus starts on "Deny" and stays inside; Escape answers Deny. For
 * ARMING_MS after it appears (or its call changes) no answer counts: buttons and shortcuts are inert.
 */
export function ApprovalDialog({ request, position, total, busy, onAnswer }: ApprovalDialogProps) {
  const denyRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const ruleId = useId();
  const noteId = useId();
  const suggested = request.suggestedRules.join(', ');
  const [rule, setRule] = useState(suggested);
  const [note, setNote] = useState('');
  const armed = useArmed(request.requestId);
  const ready = armed && !busy;
  const hintId = useId();
  // The rule is checked as it is typed (the engine's own parser): a typo must not quietly turn "Always" into nothing.
  const validation = useRuleValidation(request.onceOnly ? '' : rule, 'allow');
  const ruleBad = validation.state === 'bad';

  useEffect(() => {
    setRule(request.suggestedRules.join(', '));
    setNote('');
    denyRef.current?.focus();
  }, [request.requestId, request.suggestedRules]);

  /** An edited rule replaces the suggestions; unchanged, main uses its own suggestions. */
  const editedRule = (): string | undefined => (rule.trim() && rule.trim() !== suggested ? rule.trim() : undefined);
  const answers: Record<ApprovalChoice, () => void> = {
    once: () => onAnswer({ decision: 'once' }),
    session: () => onAnswer({ decision: 'session', ...optional(editedRule()) }),
    always: () => onAnswer({ decision: 'always', ...optional(editedRule()) }),
    deny: () => onAnswer({ decision: 'deny', ...(note.trim() ? { note: note.trim() } : {}) }),
  };
  const answer = (action: ApprovalChoice) => () => {
    if (!ready) return;
    if ((action === 'session' || action === 'always') && ruleBad) return;
    answers[action]();
  };
  /** Alt + a button's underlined letter answers, for the buttons shown only. */
  const shown: ApprovalChoice[] = request.onceOnly ? ['once', 'deny'] : ['once', 'session', 'always', 'deny'];
  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    const action = shortcutAction(event, shown);
    if (action) {
      event.preventDefault();
      answer(action)();
    }
  };
  const state = { busy, ready };
  const counter = approvalCounter(request, position, total);
  const ruleMarked = summariseMarks(rule, { strict: true }).count > 0;

  return (
    <ModalDialog className="approval-dialog" titleId={titleId} onKeyDown={onKeyDown} onCancel={answer('deny')}>
      <div
        className="approval-arming"
        data-ready={ready ? 'true' : 'false'}
        data-testid="approval-arming"
        aria-hidden="true"
      />
      <h2 id={titleId}>
        {'Allow '}
        <Shown text={request.tool} strict lines="inline" as="code" />
        {'?'}
        {counter ? (
          <span className="approval-count">
            {' '}
            <Shown text={counter} data-testid="approval-count" />
          </span>
        ) : null}
      </h2>
      {request.agent ? (
        <p className="approval-agent" data-testid="approval-agent">
          <Shown text={`Asked by sub-agent ${request.agent.id}`} strict lines="inline" />
        </p>
      ) : null}
      <ApprovalWarnings request={request} rule={rule} />
      <ApprovalFacts request={request} />
      <ApprovalPreview request={request} />
      {request.onceOnly && request.sandbox === 'outside' ? (
        <p className="error" data-testid="approval-unsandboxed">
          Runs outside the sandbox: it can write anywhere, read your secrets and use the network.
        </p>
      ) : request.onceOnly && request.preview?.kind !== 'unpreviewable' ? (
        <p className="muted" data-testid="approval-once-only">
          {'Only "Allow once" or "Deny": no rule could allow this call later, so nothing is remembered.'}
        </p>
      ) : null}
      <div className="approval-fields">
        {request.onceOnly ? null : (
          <>
            <label htmlFor={ruleId}>Rule</label>
            <input
              id={ruleId}
              type="text"
              value={rule}
              onChange={(e) => setRule(e.target.value)}
              spellCheck={false}
              disabled={busy}
              aria-invalid={ruleBad}
              aria-describedby={hintId}
            />
            <p
              id={hintId}
              className={
                ruleBad
                  ? 'approval-rule-hint error'
                  : validation.state === 'ok' && validation.warnings.length
                    ? 'approval-rule-hint rule-warning'
                    : 'approval-rule-hint muted'
              }
              aria-live="polite"
              data-testid="approval-rule-hint"
            >
              <Shown
                text={
                  validation.state === 'bad'
                    ? `Invalid rule: ${validation.error}. "Allow for session" and "Always" need a valid rule.`
                    : validation.state === 'ok' && validation.warnings.length
                      ? `⚠ ${validation.warnings.join('; ')}`
                      : '"Always" writes it to .gatehouse/settings.local.yaml (this machine only, kept out of git).'
                }
              />
            </p>
            {ruleMarked ? (
              <p className="approval-rule-shown" data-testid="approval-rule-shown">
                {'The rule holds hidden characters: '}
                <Shown text={rule} strict lines="inline" as="code" />
              </p>
            ) : null}
          </>
        )}
        <label htmlFor={noteId}>Note to the model</label>
        <input
          id={noteId}
          type="text"
          value={note}
          onChange={(e) => setNote(e.target.value)}
          placeholder="optional, sent with Deny"
          disabled={busy}
        />
      </div>
      <div className="approval-actions" data-ready={ready ? 'true' : 'false'}>
        <AnswerButton action="once" text="Allow once" {...state} onClick={answer('once')} />
        {request.onceOnly ? null : (
          <AnswerButton
            action="session"
            text="Allow for session"
            {...state}
            invalid={ruleBad}
            onClick={answer('session')}
          />
        )}
        {request.onceOnly ? null : (
          <AnswerButton
            action="always"
            text="Always allow in this project"
            {...state}
            invalid={ruleBad}
            onClick={answer('always')}
          />
        )}
        <AnswerButton action="deny" text="Deny" {...state} onClick={answer('deny')} buttonRef={denyRef} />
      </div>
      <p className="approval-keys muted" aria-hidden="true">
        <kbd>Alt</kbd> + underlined letter answers · <kbd>Esc</kbd> denies
      </p>
    </ModalDialog>
  );
}

interface AnswerButtonProps {
  action: ApprovalChoice;
  text: string;
  busy: boolean;
  /** Armed and not busy: a click answers. Until then the button looks and is inert, but keeps focus. */
  ready: boolean;
  onClick(): void;
  buttonRef?: RefObject<HTMLButtonElement | null>;
  /** The rule it would add is invalid: it cannot answer. */
  invalid?: boolean;
}

function AnswerButton({ action, text, busy, ready, onClick, buttonRef, invalid = false }: AnswerButtonProps) {
  const keys = ariaShortcut(action);
  return (
    <button
      type="button"
      ref={buttonRef}
      className={action === 'deny' ? 'primary' : 'secondary'}
      disabled={busy || invalid}
      aria-disabled={!ready}
      onClick={onClick}
      aria-keyshortcuts={keys}
      title={shownText(keys.replace(' ', ' or '))}
    >
      <ShortcutLabel text={text} action={action} />
    </button>
  );
}

function optional(rule: string | undefined): { rule?: string } {
  return rule ? { rule } : {};
}
