import { useRef, useSyncExternalStore } from 'react';
import type { ApprovalRequestEvent } from '../../../shared/chat-contract';
import { useApiClient, useApiEvent } from '../api/context';
import { shownText } from '../display/Shown';

/**
 * Browser shell: a notification when an approval waits while the page is not in front, once the person allowed
 * notifications (Settings › Notifications asks the browser). The desktop app notifies from its main process
 * (notification and dock/taskbar badge), so the page does nothing there.
 */

type Permission = NotificationPermission | 'unsupported';

const listeners = new Set<() => void>();

/** Whether this window has the focus: the browser's focus and blur events (hasFocus() alone lags in some shells). */
let windowFocused = typeof document === 'undefined' ? true : document.hasFocus();
if (typeof window !== 'undefined') {
  window.addEventListener('focus', () => (windowFocused = true));
  window.addEventListener('blur', () => (windowFocused = false));
}

/** The page is in front: focused and visible. */
function inFront(): boolean {
  return windowFocused && document.visibilityState === 'visible';
}

function readPermission(): Permission {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

/**
 * The browser's answer, read again when it can change (after asking, when the window comes back to the front, on the
 * Permissions API's change event): `Notification.permission` is slow to read in Chromium, and the events that may
 * notify arrive with every streamed token.
 */
let permission: Permission = readPermission();

function refreshPermission(): void {
  const now = readPermission();
  if (now === permission) return;
  permission = now;
  for (const l of listeners) l();
}

if (typeof window !== 'undefined') {
  window.addEventListener('focus', refreshPermission);
  void navigator.permissions
    ?.query({ name: 'notifications' })
    .then((status) => status.addEventListener('change', refreshPermission))
    .catch(() => undefined);
}

function notificationPermission(): Permission {
  return permission;
}

/** Asks the browser (only from a click: browsers ignore requests without one). */
export async function requestNotifications(): Promise<Permission> {
  if (typeof Notification === 'undefined') return 'unsupported';
  const result = await Notification.requestPermission();
  refreshPermission();
  return result;
}

export function useNotificationPermission(): Permission {
  return useSyncExternalStore((onChange) => {
    listeners.add(onChange);
    return () => listeners.delete(onChange);
  }, notificationPermission);
}

/** The notification's words: the tool and its target (hidden characters shown, cut short). */
function approvalNotice(request: ApprovalRequestEvent): { title: string; body: string } {
  const target = request.target ? ` ${request.target.split('\n')[0]}` : '';
  const body = shownText(`${request.tool}${target}`, { strict: true });
  return {
    title: 'Gatehouse: an approval is waiting',
    body: body.length > 140 ? `${body.slice(0, 139)}…` : body,
  };
}

export function useApprovalNotifications(): void {
  const client = useApiClient();
  const shown = useRef(new Map<string, Notification>());
  useApiEvent((event) => {
    if (event.type !== 'approvalRequest' && event.type !== 'approvalClosed') return;
    if (client.transport === 'bridge' || notificationPermission() !== 'granted') return;
    if (event.type === 'approvalRequest') {
      if (inFront() || shown.current.has(event.requestId)) return;
      const { title, body } = approvalNotice(event);
      const n = new Notification(title, { body, tag: `gatehouse-approval-${event.requestId}` });
      n.onclick = () => {
        window.focus();
        n.close();
      };
      shown.current.set(event.requestId, n);
    } else if (event.type === 'approvalClosed') {
      shown.current.get(event.requestId)?.close();
      shown.current.delete(event.requestId);
    }
  });
}
