import { useId, useRef } from 'react';
import type { ReactNode } from 'react';
import { Shown } from '../display/Shown';
import { ModalDialog } from './ModalDialog';

export interface ConfirmAction {
  label: string;
  onClick(): void;
  /** Styled as destructive (red). */
  danger?: boolean;
}

export interface ConfirmDialogProps {
  heading: string;
  children: ReactNode;
  /** The choices besides Cancel, in order. */
  actions: readonly ConfirmAction[];
  onCancel(): void;
  cancelLabel?: string;
}

/**
 * Asks before a destructive action: focus starts on Cancel (the safe answer), Escape cancels, the destructive
 * choices look destructive.
 */
export function ConfirmDialog({ heading, children, actions, onCancel, cancelLabel = 'Cancel' }: ConfirmDialogProps) {
  const titleId = useId();
  const descId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  return (
    <ModalDialog
      className="confirm-dialog"
      titleId={titleId}
      descriptionId={descId}
      initialFocus={cancelRef}
      onCancel={onCancel}
    >
      <h2 id={titleId}>
        <Shown text={heading} />
      </h2>
      <div id={descId}>{children}</div>
      <div className="dialog-actions">
        {actions.map((a) => (
          <button key={a.label} type="button" className={a.danger ? 'danger' : 'secondary'} onClick={a.onClick}>
            <Shown text={a.label} />
          </button>
        ))}
        <button type="button" ref={cancelRef} className="secondary" onClick={onCancel}>
          <Shown text={cancelLabel} />
        </button>
      </div>
    </ModalDialog>
  );
}
