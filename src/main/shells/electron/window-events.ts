import type { BrowserWindow } from 'electron';
import { IPC_EVENT_CHANNEL } from '../../../shared/api';
import type { ApiEvent } from '../../../shared/api';

/** The part of AppCore a window subscribes to (a page: while subscribed, it can answer approvals). */
export interface EventSource {
  onEvent(listener: (event: ApiEvent) => void): () => void;
}

/**
 * Pushes the core's events to one window's page while that page is alive, and only then. Closing the window, its
 * webContents being destroyed or its renderer going away (crash, kill, OOM) unsubscribes, so the core knows nobody
 * is left to answer and denies waiting approvals; a page loaded again (a reload after a crash) subscribes again.
 * Returns a function that unlinks the window.
 */
export function linkWindowEvents(
  core: EventSource,
  window: BrowserWindow,
  isAppPage: (url: string) => boolean,
): () => void {
  const contents = window.webContents;
  let unsubscribe: (() => void) | null = null;
  const subscribe = (): void => {
    if (unsubscribe) return;
    unsubscribe = core.onEvent((event) => {
      if (contents.isDestroyed() || !isAppPage(contents.getURL())) return;
      contents.send(IPC_EVENT_CHANNEL, event);
    });
  };
  const drop = (): void => {
    const off = unsubscribe;
    unsubscribe = null;
    off?.();
  };
  const unlink = (): void => {
    drop();
    window.off('closed', unlink);
    contents.off('destroyed', unlink);
    contents.off('render-process-gone', drop);
    contents.off('did-finish-load', subscribe);
  };
  subscribe();
  window.on('closed', unlink);
  contents.on('destroyed', unlink);
  contents.on('render-process-gone', drop);
  contents.on('did-finish-load', subscribe);
  return unlink;
}
