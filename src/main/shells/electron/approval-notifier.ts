import { app, Notification } from 'electron';
import type { BrowserWindow } from 'electron';
import type { ApiEvent } from '../../../shared/api';
import { visibleText } from '../../../shared/visible-text';

export interface ApprovalNotifierOptions {
  /** The app's window, if one is open. */
  window(): BrowserWindow | null;
  /** Brings the window forward (opening one if needed). */
  show(): void;
}

/**
 * While approvals wait and the window is not focused: a desktop notification per approval (click: the window comes
 * forward) and the count on the dock/taskbar badge (macOS, Linux Unity; Windows ignores it). Everything is cleared
 * when the approval closes or the window gains focus. Fed from AppCore.watch (it never answers an approval).
 */
export function createApprovalNotifier(options: ApprovalNotifierOptions): (event: ApiEvent) => void {
  const waiting = new Map<string, Notification | null>();
  const setBadge = (): void => {
    try {
      app.setBadgeCount(waiting.size);
    } catch {
      // a platform without badges
    }
  };
  let watched: BrowserWindow | null = null;
  const watchFocus = (): void => {
    const win = options.window();
    if (!win || win === watched) return;
    watched = win;
    win.on('focus', () => {
      for (const n of waiting.values()) n?.close();
      for (const id of waiting.keys()) waiting.set(id, null);
    });
  };
  return (event) => {
    if (event.type === 'approvalRequest') {
      watchFocus();
      const win = options.window();
      const focused = win !== null && !win.isDestroyed() && win.isFocused();
      let shown: Notification | null = null;
      if (!focused && Notification.isSupported()) {
        // Untrusted text (a model's path or command): hidden characters as markers, one line, cut short.
        const target = visibleText(`${event.tool} ${event.target.split('\n')[0] ?? ''}`.trim(), {
          strict: true,
          newlines: 'sign',
        });
        shown = new Notification({
          title: 'Gatehouse: an approval is waiting',
          body: target.length > 140 ? `${target.slice(0, 139)}…` : target,
        });
        shown.on('click', () => options.show());
        shown.show();
      }
      waiting.set(event.requestId, shown);
      setBadge();
    } else if (event.type === 'approvalClosed') {
      waiting.get(event.requestId)?.close();
      waiting.delete(event.requestId);
      setBadge();
    } else if (event.type === 'projectChanged') {
      for (const n of waiting.values()) n?.close();
      waiting.clear();
      setBadge();
    }
  };
}
