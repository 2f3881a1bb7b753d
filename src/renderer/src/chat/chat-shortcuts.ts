import { useEffect, useRef } from 'react';
import type { RefObject } from 'react';

/** Ctrl+K / Cmd+K: the chat's app-wide shortcut to the message box. */
export const FOCUS_MESSAGE_KEYS = 'Control+K Meta+K';
/** Ctrl+. / Cmd+.: cancels the running task (Escape never does: it is too easy to press while typing). */
export const CANCEL_RUN_KEYS = 'Control+. Meta+.';

/**
 * App-wide chat shortcuts: Ctrl/Cmd+K focuses `box`; Ctrl/Cmd+. calls `onCancel` (when given). Nothing happens
 * while a modal dialog is open (it owns the keyboard then).
 */
export function useChatShortcuts(box: RefObject<HTMLTextAreaElement | null>, onCancel: (() => void) | undefined): void {
  const cancelRef = useRef(onCancel);
  useEffect(() => {
    cancelRef.current = onCancel;
  }, [onCancel]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent): void => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
      if (document.querySelector('dialog[open]')) return;
      if (event.key.toLowerCase() === 'k') {
        event.preventDefault();
        box.current?.focus();
      } else if (event.key === '.' && cancelRef.current) {
        event.preventDefault();
        cancelRef.current();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [box]);
}
