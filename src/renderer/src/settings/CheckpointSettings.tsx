import { useState } from 'react';
import type { CheckpointSettingsView } from '../../../shared/checkpoint-settings-contract';
import { errorMessage } from '../api/errors';
import { useApi } from '../api/context';
import { useApiResource } from '../api/use-api-resource';
import { ConfirmDialog } from '../app/ConfirmDialog';
import { Shown } from '../display/Shown';
import { CheckpointSettingsForm } from './CheckpointSettingsForm';
import { SettingStatus } from './SettingStatus';
import type { SaveStatus } from './SettingStatus';

/** 1536 → "1.5 KiB". */
function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${bytes} bytes` : `${value.toFixed(1)} ${units[unit]}`;
}

function usageText(usage: NonNullable<CheckpointSettingsView['usage']>): string {
  const count =
    usage.checkpoints === null ? '' : `${usage.checkpoints} checkpoint${usage.checkpoints === 1 ? '' : 's'}, `;
  return `This project's checkpoints: ${count}${formatBytes(usage.bytes)} on disk.`;
}

/**
 * Settings › Checkpoints: the `checkpoints:` settings (the user's own settings.yaml), what the open project's
 * checkpoints take on disk, and deleting them (after a confirmation).
 */
export function CheckpointSettings() {
  const api = useApi();
  // Checkpoints taken or settings edited elsewhere (the CLI, an editor) show when the person comes back.
  const {
    data: view,
    setData: setView,
    error,
  } = useApiResource((a) => a.getCheckpointSettings({}), {
    failure: 'Could not read the checkpoint settings',
    reloadOn: ['projectChanged', 'settingsChanged', 'runFinished'],
  });
  const [confirming, setConfirming] = useState(false);
  const [deleteStatus, setDeleteStatus] = useState<SaveStatus>({ state: 'idle' });

  const remove = () => {
    setConfirming(false);
    setDeleteStatus({ state: 'saving' });
    api.deleteProjectCheckpoints({}).then(
      (r) => {
        setView(r.view);
        const what = r.deleted === null ? 'every checkpoint' : `${r.deleted} checkpoint${r.deleted === 1 ? '' : 's'}`;
        setDeleteStatus({ state: 'saved', text: `Deleted ${what} of this project.` });
      },
      (err: unknown) => setDeleteStatus({ state: 'failed', text: `Not deleted: ${errorMessage(err)}` }),
    );
  };

  if (error)
    return (
      <p className="error" role="alert">
        <Shown text={error} />
      </p>
    );
  if (!view) return <p className="muted">Loading checkpoint settings…</p>;
  const usage = view.usage;
  const empty = usage !== null && usage.bytes === 0 && usage.checkpoints !== null && usage.checkpoints === 0;
  return (
    <div data-testid="settings-checkpoints-section">
      <p className="settings-intro muted">
        Before a prompt may change files, Gatehouse keeps a copy of the project&apos;s files (not its ignored ones) in a
        folder of its own, so &quot;Rewind&quot; and <code>gatehouse checkpoints restore</code> can put them back.
      </p>
      {view.problem ? (
        <p className="settings-warning" role="alert" data-testid="settings-checkpoints-problem">
          <Shown
            text={`${view.problem}. Until that is fixed in the file, checkpoints use the defaults shown here, and saving here is off so the file is not overwritten.`}
          />
        </p>
      ) : null}
      <CheckpointSettingsForm
        saved={view.settings}
        locked={view.problem !== null}
        save={(values) => api.saveCheckpointSettings(values).then(setView)}
      />
      <div className="settings-form" data-testid="settings-checkpoints-usage">
        {usage === null ? (
          <p className="settings-note">Open a project to see how much disk its checkpoints use.</p>
        ) : (
          <>
            <p className="settings-note">
              <Shown text={usageText(usage)} />
            </p>
            <p className="settings-note muted">
              <Shown text={`In ${usage.folder}`} strict lines="inline" />
            </p>
            {usage.problem ? (
              <p className="settings-warning">
                <Shown text={usage.problem} />
              </p>
            ) : null}
            <div className="settings-row">
              <button type="button" className="danger" disabled={empty} onClick={() => setConfirming(true)}>
                Delete this project&apos;s checkpoints
              </button>
            </div>
          </>
        )}
        <SettingStatus status={deleteStatus} testId="settings-checkpoints-delete-status" />
      </div>
      {confirming && view.project ? (
        <ConfirmDialog
          heading="Delete this project's checkpoints?"
          actions={[{ label: 'Delete checkpoints', onClick: remove, danger: true }]}
          onCancel={() => setConfirming(false)}
        >
          <p>
            Every checkpoint of <Shown text={view.project} strict as="code" lines="inline" /> goes: none of its prompts
            can be rewound afterwards. The project&apos;s files stay as they are.
          </p>
        </ConfirmDialog>
      ) : null}
    </div>
  );
}
