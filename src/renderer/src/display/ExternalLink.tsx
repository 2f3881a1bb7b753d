import { useId, useRef } from 'react';
import type { ReactNode } from 'react';
import { create } from 'zustand';
import { ModalDialog } from '../app/ModalDialog';
import { linkTextMisleads } from './link-target';
import { Shown, shownText } from './Shown';

/** The address a person asked to open, waiting for them to confirm it (one at a time). */
const useLinkConfirm = create<{ url: string | null }>(() => ({ url: null }));

/** Shows the confirmation for `url` (an http(s) or mailto address already checked by safeLinkUrl). */
export function askToOpen(url: string): void {
  useLinkConfirm.setState({ url });
}

/**
 * A link out of the app. The target shows on hover and, when the text reads like another address, beside the text;
 * a click never navigates at once: it asks, showing the whole target, and opens it only on "Open".
 */
export function ExternalLink({ href, text, children }: { href: string; text: string; children: ReactNode }) {
  const misleads = linkTextMisleads(text, href);
  return (
    <>
      <a
        href={href}
        title={shownText(href, { strict: true })}
        rel="noreferrer noopener"
        target="_blank"
        onClick={(event) => {
          event.preventDefault();
          askToOpen(href);
        }}
        data-testid="external-link"
      >
        {children}
      </a>
      {misleads ? (
        <span className="link-real-target" data-testid="link-real-target">
          {' (goes to '}
          <Shown text={href} strict lines="inline" as="code" />
          {')'}
        </span>
      ) : null}
    </>
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

/** Where the page opens an address: a new browser tab, or the system browser in the desktop app. */
function openOutside(url: string): void {
  window.open(url, '_blank', 'noopener,noreferrer');
}

/** The confirmation dialog for a link (mounted once, by the app). Cancel has the focus; Escape cancels. */
export function LinkConfirmHost() {
  const url = useLinkConfirm((s) => s.url);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  if (url === null) return null;
  const close = (): void => useLinkConfirm.setState({ url: null });
  const host = hostOf(url);
  return (
    <ModalDialog className="link-confirm-dialog" titleId={titleId} initialFocus={cancelRef} onCancel={close}>
      <h2 id={titleId}>Open this address?</h2>
      <p className="link-confirm-target" data-testid="link-confirm-target">
        <Shown text={url} strict lines="inline" as="code" />
      </p>
      {host ? (
        <p className="muted">
          {'Site: '}
          <Shown text={host} strict lines="inline" as="code" data-testid="link-confirm-host" />
        </p>
      ) : null}
      <div className="link-confirm-actions">
        <button type="button" ref={cancelRef} className="primary" onClick={close}>
          Cancel
        </button>
        <button
          type="button"
          className="secondary"
          onClick={() => {
            close();
            openOutside(url);
          }}
        >
          Open
        </button>
      </div>
    </ModalDialog>
  );
}
