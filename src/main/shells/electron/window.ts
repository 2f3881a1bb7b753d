import path from 'node:path';
import type { WebContents, WebFrameMain } from 'electron';
import { BrowserWindow } from 'electron';
import type { Rect } from './window-bounds';

/**
 * The app window: sandboxed renderer, context isolation, no Node, web security on, our preload only; DevTools only
 * when `devTools` (development builds).
 */
export function createMainWindow(options: {
  preload: string;
  title: string;
  devTools: boolean;
  /** Where the window was last left (checked to be on a connected display); default: 1200x800 where the OS puts it. */
  bounds?: Rect | null;
}): BrowserWindow {
  return new BrowserWindow({
    width: 1200,
    height: 800,
    ...(options.bounds ?? {}),
    minWidth: 640,
    minHeight: 480,
    title: options.title,
    show: false,
    backgroundColor: '#1e1e1e',
    webPreferences: {
      preload: options.preload,
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      safeDialogs: true,
      devTools: options.devTools,
      // Middle-click (auxclick) must not open links in new windows behind the window-open handler's back.
      disableBlinkFeatures: 'Auxclick',
    },
  });
}

/** The built files beside the main bundle (out/main/index.js -> out/preload, out/renderer). */
export function bundlePaths(mainDir: string): { preload: string; renderer: string } {
  return {
    preload: path.join(mainDir, '../preload/index.cjs'),
    renderer: path.join(mainDir, '../renderer'),
  };
}

/**
 * The sender check of every IPC request: the top-level frame of our window's webContents (not a subframe, not
 * another window), currently showing the app's page.
 */
export function isAppFrame(
  window: BrowserWindow | null,
  frame: WebFrameMain | null,
  sender: WebContents,
  isAppPage: (url: string) => boolean,
): boolean {
  if (!window || window.isDestroyed() || !frame || frame.isDestroyed()) return false;
  const contents = window.webContents;
  if (sender !== contents || frame.parent !== null) return false;
  const main = contents.mainFrame;
  if (frame.processId !== main.processId || frame.routingId !== main.routingId) return false;
  return isAppPage(frame.url);
}
