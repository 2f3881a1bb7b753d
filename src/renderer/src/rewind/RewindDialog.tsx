import { useEffect, useId, useRef, useState } from 'react';
import type { CheckpointEntry } from '../../../shared/checkpoint-contract';
import type { RewindPreview } from '../../../shared/rewind-contract';
import { errorMessage } from '../api/errors';
import { useApi } from '../api/context';
import { ModalDialog } from '../app/ModalDialog';
import { Shown } from '../display/Shown';
import { useChat } from '../chat/chat-store';
import { applyRewind } from './apply-rewind';
import { RewindFiles } from './RewindFiles';
import { closeRewind, useRewind } from './rewind-store';
import './rewind.css';

type Choice = { files: boolean; conversation: boolean };

/** Which checkpoint, when, and what it left out (files over the size limit are not in it and are never touched). */
function checkpointLine(c: CheckpointEntry): string {
  const when = new Date(c.createdAt).toLocaleString();
  const left = c.skipped.length
    ? ` It left out ${c.skipped.length === 1 ? '1 file' : `${c.skipped.length} files`} (${c.skipped
        .slice(0, 3)
        .map((f) => `${f.path}: ${f.reason}`)
        .join('; ')}${c.skipped.length > 3 ? '; …' : ''}); a rewind leaves them as they are.`
    : '';
  return `Checkpoint ${c.id}, taken ${when}.${left}`;
}

/**
 * "Rewind to here": what going back to just before one of the person's messages would change (the files, from the
 * checkpoint taken before it, and the conversation), then the person's choice. Cancel has the focus; nothing changes
 * until a rewind button is pressed.
 */
export function RewindDialog() {
  const runId = useRewind((s) => s.runId);
  return runId ? <RewindDialogFor key={runId} runId={runId} /> : null;
}

function RewindDialogFor({ runId }: { runId: string }) {
  const api = useApi();
  const running = useChat((s) => s.running);
  const titleId = useId();
  const cancelRef = useRef<HTMLButtonElement>(null);
  const [preview, setPreview] = useState<RewindPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [overwrite, setOverwrite] = useState(false);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    api.previewRewind({ runId }).then(
      (p) => live && setPreview(p),
      (err: unknown) => live && setError(errorMessage(err)),
    );
    return () => {
      live = false;
    };
  }, [api, runId]);

  const rewind = async (choice: Choice) => {
    setBusy(true);
    setError(null);
    try {
      const result = await api.rewind({ runId, ...choice, overwriteExternal: overwrite });
      closeRewind();
      await applyRewind(api, result);
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  };

  const filesOk = preview !== null && preview.filesUnavailable === null;
  const changes = preview?.diff?.files.length ?? 0;
  const blocked = busy || running || preview === null;
  return (
    <ModalDialog className="rewind-dialog" titleId={titleId} initialFocus={cancelRef} onCancel={closeRewind}>
      <h2 id={titleId}>Rewind to before this message</h2>
      {preview ? (
        <blockquote className="rewind-prompt">
          <Shown text={preview.prompt.length > 400 ? `${preview.prompt.slice(0, 400)}…` : preview.prompt} />
        </blockquote>
      ) : null}
      {preview === null && error === null ? (
        <p role="status">
          <span className="spinner" aria-hidden="true" /> Comparing the project’s files with the checkpoint…
        </p>
      ) : null}
      {preview ? (
        <>
          <h3>Files</h3>
          {preview.checkpoint?.commit ? (
            <p className="muted" data-testid="rewind-checkpoint">
              <Shown text={checkpointLine(preview.checkpoint)} />
            </p>
          ) : null}
          {preview.diff ? (
            <RewindFiles diff={preview.diff} overwrite={overwrite} onOverwrite={setOverwrite} />
          ) : (
            <p data-testid="rewind-files-unavailable">
              <Shown text={`The files cannot be rewound: ${preview.filesUnavailable ?? 'no checkpoint'}.`} />
            </p>
          )}
          <h3>Conversation</h3>
          <p>
            The conversation goes back to just before this message, in a copy of this session; this session stays in the
            list as it is. The message is put back in the box, to edit or send again.
          </p>
        </>
      ) : null}
      {running ? <p className="muted">The agent is working: wait for it or cancel it first.</p> : null}
      {error ? (
        <p className="error" role="alert">
          <Shown text={error} />
        </p>
      ) : null}
      <div className="dialog-actions">
        <button
          type="button"
          className="danger"
          disabled={blocked || !filesOk}
          onClick={() => void rewind({ files: true, conversation: true })}
        >
          Rewind files and conversation
        </button>
        <button
          type="button"
          className="secondary"
          disabled={blocked || !filesOk || changes === 0}
          onClick={() => void rewind({ files: true, conversation: false })}
        >
          Files only
        </button>
        <button
          type="button"
          className="secondary"
          disabled={blocked}
          onClick={() => void rewind({ files: false, conversation: true })}
        >
          Conversation only
        </button>
        <button type="button" ref={cancelRef} className="secondary" onClick={closeRewind}>
          Cancel
        </button>
      </div>
    </ModalDialog>
  );
}
