import { useApi } from '../api/context';
import { showView } from '../app/view-store';
import { Shown } from '../display/Shown';
import { HookRuns } from '../hooks/HookRuns';
import type { NoticeItem } from './chat-store';
import { useChat } from './chat-store';
import { sendMessage } from './send-message';

/** A line from Gatehouse in the transcript; a failed run offers its fixes (Open Settings, Retry). */
export function NoticeRow({ item }: { item: NoticeItem }) {
  const api = useApi();
  const running = useChat((s) => s.running);
  const error = item.tone === 'error';
  const actions = item.retry !== undefined || item.settings;
  return (
    <div className={error ? 'msg-notice error' : 'msg-notice muted'} role={error ? 'alert' : undefined}>
      {item.text ? <Shown text={item.text} /> : null}
      <HookRuns runs={item.hooks} />
      {actions ? (
        <span className="notice-actions">
          {item.settings ? (
            <button type="button" className="secondary" onClick={() => showView('settings')}>
              Open Settings
            </button>
          ) : null}
          {item.retry !== undefined ? (
            <button
              type="button"
              className="secondary"
              disabled={running}
              onClick={() => void sendMessage(api, item.retry ?? '')}
            >
              Retry
            </button>
          ) : null}
        </span>
      ) : null}
    </div>
  );
}
