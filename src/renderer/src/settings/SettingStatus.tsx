import { Shown } from '../display/Shown';

/** What a save is doing, said politely to screen readers: saving, saved, or why it failed. */
export type SaveStatus =
  | { state: 'idle' }
  | { state: 'saving' }
  | { state: 'saved'; text: string }
  | { state: 'failed'; text: string };

export function SettingStatus({ status, testId }: { status: SaveStatus; testId: string }) {
  if (status.state === 'idle') return <p className="settings-status" role="status" data-testid={testId} />;
  if (status.state === 'failed') {
    return (
      <p className="settings-status error" role="alert" data-testid={testId}>
        <Shown text={status.text} />
      </p>
    );
  }
  return (
    <p className="settings-status muted" role="status" data-testid={testId}>
      {status.state === 'saving' ? 'Saving…' : <Shown text={status.text} />}
    </p>
  );
}
