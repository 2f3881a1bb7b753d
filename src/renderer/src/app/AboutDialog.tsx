import { useId, useRef } from 'react';
import { Shown } from '../display/Shown';
import { LiveWorkerPanel } from './LiveWorkerPanel';
import { ModalDialog } from './ModalDialog';
import { useShell } from './store';

/** Help › About: the version, and the worker's diagnostics (a real round trip to the worker process). */
export function AboutDialog({ onClose }: { onClose(): void }) {
  const titleId = useId();
  const closeRef = useRef<HTMLButtonElement>(null);
  const info = useShell((s) => s.info);
  return (
    <ModalDialog className="about-dialog" titleId={titleId} initialFocus={closeRef} onCancel={onClose}>
      <h2 id={titleId}>About Gatehouse</h2>
      <p>
        {info ? (
          <Shown text={`Gatehouse ${info.version} · ${info.shell === 'desktop' ? 'desktop app' : 'browser shell'}`} />
        ) : null}
      </p>
      <LiveWorkerPanel />
      <div className="dialog-actions">
        <button type="button" ref={closeRef} onClick={onClose}>
          Close
        </button>
      </div>
    </ModalDialog>
  );
}
