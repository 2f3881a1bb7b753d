import { useMemo, useState } from 'react';
import type { ChangedFile, CheckpointDiff } from '../../../shared/checkpoint-contract';
import { Shown } from '../display/Shown';
import { DiffView } from '../chat/DiffView';
import { patchByFile } from './rewind-patch';

const ACTION_WORDS: Record<ChangedFile['action'], string> = {
  restore: 'put back',
  recreate: 'brought back (deleted since)',
  delete: 'deleted (new since)',
};

/**
 * What rewinding the files would change: one line per file (changed outside the agent: marked, kept unless the
 * person ticks the box), and the chosen file's diff, from now back to the checkpoint.
 */
export function RewindFiles({
  diff,
  overwrite,
  onOverwrite,
}: {
  diff: CheckpointDiff;
  overwrite: boolean;
  onOverwrite(value: boolean): void;
}) {
  const patches = useMemo(() => patchByFile(diff.patch, diff.files), [diff]);
  const [chosen, setChosen] = useState<string | null>(diff.files[0]?.path ?? null);
  const external = diff.files.filter((f) => f.external);
  if (diff.files.length === 0)
    return (
      <p data-testid="rewind-no-file-changes">The files are as they were before this message: nothing to put back.</p>
    );
  const chosenPatch = chosen === null ? undefined : patches.get(chosen);
  return (
    <div className="rewind-files">
      <ul className="rewind-file-list" aria-label="Files a rewind changes">
        {diff.files.map((f) => (
          <li key={f.path} data-testid="rewind-file" data-external={f.external ? 'true' : undefined}>
            <button type="button" className="link" aria-pressed={chosen === f.path} onClick={() => setChosen(f.path)}>
              <Shown text={f.path} strict lines="inline" as="code" />
            </button>{' '}
            <span className="muted">{ACTION_WORDS[f.action]}</span>
            {f.external ? (
              <span className="rewind-external"> changed outside the agent{overwrite ? '' : ': kept'}</span>
            ) : null}
          </li>
        ))}
      </ul>
      {external.length > 0 ? (
        <label className="rewind-overwrite">
          <input type="checkbox" checked={overwrite} onChange={(e) => onOverwrite(e.target.checked)} /> Also overwrite
          the {external.length === 1 ? 'file' : `${external.length} files`} changed outside the agent (otherwise kept as
          they are now)
        </label>
      ) : null}
      {chosen !== null && chosenPatch !== undefined ? (
        <DiffView path={chosen} diff={chosenPatch} />
      ) : chosen !== null ? (
        <p className="muted">
          {diff.patchTruncated
            ? 'This file’s changes are past the preview’s size limit.'
            : 'No text changes to show (a binary file, or only its mode).'}
        </p>
      ) : null}
    </div>
  );
}
