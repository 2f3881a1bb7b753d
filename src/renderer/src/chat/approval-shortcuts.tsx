import type { ReactNode } from 'react';
import type { ApprovalChoice } from '../../../shared/approval-contract';
import { shownText } from '../display/Shown';

/** The letter that answers with Alt held: shown underlined on its button and in `aria-keyshortcuts`. */
const APPROVAL_KEYS: Record<ApprovalChoice, string> = { once: 'o', session: 's', always: 'a', deny: 'd' };

interface KeyLike {
  key: string;
  code: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
}

/**
 * The answer a key press gives: Alt plus a button's letter, only among the buttons shown (`available`). Works in
 * the text boxes too (Alt is never typing), by the key's letter or, where Alt changes the character (macOS), by the
 * physical key.
 */
export function shortcutAction(event: KeyLike, available: readonly ApprovalChoice[]): ApprovalChoice | null {
  if (!event.altKey || event.ctrlKey || event.metaKey) return null;
  const letter = /^[a-z]$/i.test(event.key)
    ? event.key.toLowerCase()
    : /^Key[A-Z]$/.test(event.code)
      ? event.code.slice(3).toLowerCase()
      : null;
  return available.find((action) => APPROVAL_KEYS[action] === letter) ?? null;
}

/** `aria-keyshortcuts` for an answer, e.g. "Alt+O" (Deny also answers to Escape). */
export function ariaShortcut(action: ApprovalChoice): string {
  const alt = `Alt+${APPROVAL_KEYS[action].toUpperCase()}`;
  return action === 'deny' ? `Escape ${alt}` : alt;
}

/** A button label with its shortcut letter underlined: the first word starting with that letter. */
export function ShortcutLabel({ text, action }: { text: string; action: ApprovalChoice }): ReactNode {
  const at = text.search(new RegExp(`\\b${APPROVAL_KEYS[action]}`, 'i'));
  if (at === -1) return shownText(text);
  return (
    <>
      {shownText(text.slice(0, at))}
      <span className="shortcut-letter">{shownText(text.charAt(at))}</span>
      {shownText(text.slice(at + 1))}
    </>
  );
}
