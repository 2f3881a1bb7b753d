import { useId, useRef } from 'react';
import { ModalDialog } from '../app/ModalDialog';
import { Shown } from '../display/Shown';

export interface BypassConfirmDialogProps {
  /** Where bypass would apply, e.g. "this chat session" or "every project (user settings)". */
  scope: string;
  onConfirm(): void;
  onCancel(): void;
}

/**
 * The explicit confirmation bypass needs: a modal dialog saying what it means. Focus starts on Cancel (the safe
 * answer) and stays inside; Escape cancels.
 */
export function BypassConfirmDialog({ scope, onConfirm, onCancel }: BypassConfirmDialogProps) {
  const cancelRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const descId = useId();

  return (
    <ModalDialog
      className="bypass-dialog"
      titleId={titleId}
      descriptionId={descId}
      initialFocus={cancelRef}
      onCancel={onCancel}
    >
      <h2 id={titleId}>Turn on bypass mode?</h2>
      <div id={descId}>
        <p>
          Bypass applies to{' '}
          <strong>
            <Shown text={scope} lines="inline" />
          </strong>
          . Every read, write and command that no rule decides runs <strong>without asking you</strong>: the agent can
          change and delete files and run programs on its own.
        </p>
        <p className="muted">
          Still enforced: deny and ask rules, the built-in deny list, the project boundary, plan mode, and commands the
          engine cannot read. Revoking the project&apos;s trust ends bypass.
        </p>
      </div>
      <div className="bypass-dialog-actions">
        <button type="button" ref={cancelRef} className="primary" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="bypass-confirm" onClick={onConfirm}>
          Turn on bypass
        </button>
      </div>
    </ModalDialog>
  );
}
