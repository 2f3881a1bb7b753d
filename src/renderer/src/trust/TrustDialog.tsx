import { useId, useRef, useState } from 'react';
import { ModalDialog } from '../app/ModalDialog';
import type { TrustScope } from '../../../shared/permission';
import { ALL_EXTENSIONS } from '../../../shared/trust-contract';
import type { TrustExtensions, TrustPreview, TrustStatus } from '../../../shared/trust-contract';
import { MarkWarning } from '../display/MarkWarning';
import { Shown } from '../display/Shown';
import { ExtensionSwitches } from './ExtensionSwitches';
import { previewTexts, TrustPreviewList } from './TrustPreviewList';

export interface TrustDialogProps {
  path: string;
  /** The parent folder a "Trust parent folder" answer trusts; null at the file-system root. */
  parent: string | null;
  preview: TrustPreview | null;
  status: TrustStatus | null;
  busy?: boolean;
  /** `extensions`: what a trusting answer enables (the dialog's switches); ignored for `never`. */
  onAnswer(scope: TrustScope, extensions: TrustExtensions): void;
  /** "Not now": untrusted for this session only, nothing stored, asked again next time. */
  onNotNow(): void;
}

/**
 * The trust prompt: a modal dialog naming the folder and what it would load if trusted. Focus starts on "Not now"
 * (the safe answer: untrusted, nothing stored) and stays inside; Escape answers "Not now". "Never trust this
 * folder" stores `never`: nothing is stored permanently without an explicit choice. Four switches say what a
 * trusting answer enables (the project's rules, hooks, instructions with its skills and sub-agents, MCP servers): all
 * on, or as the current decision has them; the list above them counts what each would load, as the switches do.
 * "Trust parent folder" trusts more than was asked about: a link-styled answer apart from the others.
 */
export function TrustDialog({ path, parent, preview, status, busy = false, onAnswer, onNotNow }: TrustDialogProps) {
  const notNowRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const descId = useId();
  const [extensions, setExtensions] = useState<TrustExtensions>(() =>
    status?.trusted && status.extensions ? status.extensions : ALL_EXTENSIONS,
  );
  const answer = (scope: TrustScope): void => onAnswer(scope, extensions);

  return (
    <ModalDialog
      className="trust-dialog"
      titleId={titleId}
      descriptionId={descId}
      initialFocus={notNowRef}
      onCancel={() => {
        // Escape: the safe answer, stored nowhere.
        if (!busy) onNotNow();
      }}
    >
      <h2 id={titleId}>Do you trust this folder?</h2>
      <MarkWarning
        texts={[
          { text: path, strict: true },
          ...(parent ? [{ text: parent, strict: true }] : []),
          ...(preview ? previewTexts(preview) : []),
        ]}
        subject="What this folder would load"
      />
      <p className="trust-dialog-path">
        <Shown text={path} strict lines="inline" as="code" data-testid="trust-dialog-path" />
      </p>
      <p id={descId}>
        Until you trust it, this project is untrusted: only read-only tools run without asking, and its allow-rules,
        hooks, instructions, skills, sub-agents and MCP servers are not loaded. Its deny and ask rules always apply.
      </p>
      {status && !status.needsDecision ? (
        <p className="muted">
          <Shown text={`Now: ${status.reason}`} />
        </p>
      ) : null}
      {preview ? <TrustPreviewList preview={preview} /> : <p className="muted">Reading what the project would load…</p>}
      <ExtensionSwitches
        legend="If you trust it, enable its"
        value={extensions}
        preview={preview}
        disabled={busy}
        onChange={(change) => setExtensions((e) => ({ ...e, ...change }))}
      />
      <div className="trust-dialog-actions">
        <button type="button" ref={notNowRef} className="primary" disabled={busy} onClick={onNotNow}>
          Not now
        </button>
        <button type="button" className="secondary" disabled={busy} onClick={() => answer('session')}>
          Trust this session
        </button>
        <button type="button" className="secondary" disabled={busy} onClick={() => answer('directory')}>
          Trust this folder
        </button>
        <button type="button" className="secondary" disabled={busy} onClick={() => answer('never')}>
          Never trust this folder
        </button>
      </div>
      {parent ? (
        <p className="trust-dialog-more muted">
          {'Or, for every folder inside it: '}
          <button
            type="button"
            className="link"
            disabled={busy}
            onClick={() => answer('parent')}
            data-testid="trust-parent"
          >
            Trust parent folder <Shown className="trust-parent-path" text={parent} strict lines="inline" as="code" />
          </button>
        </p>
      ) : null}
    </ModalDialog>
  );
}
