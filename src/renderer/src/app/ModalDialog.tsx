import { useEffect, useRef } from 'react';
import type { KeyboardEvent, ReactNode, RefObject } from 'react';
import { trapTab } from './focus-trap';

export interface ModalDialogProps {
  /** Added to `modal-dialog` (the frame in styles.css). */
  className: string;
  titleId: string;
  descriptionId?: string;
  /**
   * Focused when the dialog opens (the safe answer); focus goes back where it was when it closes. Without it the
   * dialog's owner places focus itself.
   */
  initialFocus?: RefObject<HTMLElement | null>;
  /** Runs before Tab and Shift+Tab are kept inside the dialog. */
  onKeyDown?(event: KeyboardEvent<HTMLDialogElement>): void;
  /** Escape (the browser's own close is prevented). */
  onCancel(): void;
  children: ReactNode;
}

/** A modal <dialog>: shown with showModal while mounted, closed on unmount, Tab kept inside. */
export function ModalDialog({
  className,
  titleId,
  descriptionId,
  initialFocus,
  onKeyDown,
  onCancel,
  children,
}: ModalDialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = dialogRef.current;
    const previous = initialFocus && document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (dialog && !dialog.open && typeof dialog.showModal === 'function') dialog.showModal();
    initialFocus?.current?.focus();
    return () => {
      if (dialog?.open) dialog.close();
      previous?.focus();
    };
  }, [initialFocus]);

  return (
    <dialog
      ref={dialogRef}
      className={`modal-dialog ${className}`}
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      onKeyDown={(event) => {
        onKeyDown?.(event);
        trapTab(event, dialogRef.current);
      }}
      onCancel={(event) => {
        event.preventDefault();
        onCancel();
      }}
    >
      {children}
    </dialog>
  );
}
