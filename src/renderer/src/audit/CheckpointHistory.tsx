import type { CheckpointAudit } from '../../../shared/audit-contract';
import { Shown } from '../display/Shown';

function files(n: number): string {
  return n === 1 ? '1 file' : `${n} files`;
}

/** One line of the history in words. */
function checkpointAuditText(c: CheckpointAudit): string {
  if (c.kind === 'checkpoints-deleted')
    return `Every checkpoint of this project deleted${c.deleted === null ? '' : ` (${c.deleted})`}.`;
  const kept = c.kept.length ? `, ${files(c.kept.length)} kept (changed outside the agent: ${c.kept.join(', ')})` : '';
  const undo = c.undo ? `; undo: checkpoint ${c.undo}` : '';
  return `Checkpoint ${c.checkpoint} restored: ${files(c.restored.length)} put back${kept}${undo}.`;
}

/** The project's checkpoint restores and deletions (newest first), under the decisions' note. */
export function CheckpointHistory({
  entries,
  formatTime,
}: {
  entries: CheckpointAudit[];
  formatTime(iso: string): string;
}) {
  if (entries.length === 0) return null;
  return (
    <details className="audit-checkpoints" data-testid="audit-checkpoints">
      <summary>Checkpoint restores and deletions ({entries.length})</summary>
      <ul>
        {entries.map((c, i) => (
          <li key={`${c.time}|${i}`}>
            <Shown text={`${formatTime(c.time)} · ${checkpointAuditText(c)}`} />
          </li>
        ))}
      </ul>
    </details>
  );
}
