import { useApiClient } from '../api/context';
import { requestNotifications, useNotificationPermission } from '../app/notifications';

/** Settings › Notifications: whether Gatehouse tells you when an approval waits while its window is not in front. */
export function NotificationSetting() {
  const client = useApiClient();
  const permission = useNotificationPermission();
  if (client.transport === 'bridge')
    return (
      <p className="settings-note" data-testid="settings-notifications">
        When an approval waits while the window is in the background, Gatehouse shows a desktop notification and a badge
        on its dock or taskbar icon.
      </p>
    );
  return (
    <div className="settings-form" data-testid="settings-notifications">
      <p className="settings-note">
        {permission === 'granted'
          ? 'On: this browser shows a notification when an approval waits while this tab is not in front.'
          : permission === 'denied'
            ? 'Blocked in this browser: allow notifications for this page in the browser’s site settings.'
            : permission === 'unsupported'
              ? 'This browser cannot show notifications.'
              : 'Off: allow this browser to notify you when an approval waits while this tab is not in front.'}
      </p>
      {permission === 'default' ? (
        <div className="settings-row">
          <button type="button" onClick={() => void requestNotifications()}>
            Turn on notifications
          </button>
        </div>
      ) : null}
    </div>
  );
}
