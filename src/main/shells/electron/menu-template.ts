import path from 'node:path';
import type { MenuItemConstructorOptions } from 'electron';

export interface AppMenuOptions {
  appName: string;
  isMac: boolean;
  /** Reload and developer tools are offered only in development builds. */
  isPackaged: boolean;
  recentProjects: readonly string[];
  openFolder: () => void;
  openRecent: (dir: string) => void;
  /** View > Chat / Rules / Hooks / MCP Servers / Skills & Sub-agents / Settings…, Help > About: the page shows that view (About: the worker's diagnostics). */
  showView: (view: 'chat' | 'rules' | 'hooks' | 'mcp' | 'skills' | 'settings' | 'about') => void;
}

const MAX_RECENT_IN_MENU = 10;

/**
 * The application menu: standard roles (so the OS shortcuts work: copy/paste, quit, minimize...) plus File >
 * Open Folder... (Ctrl/Cmd+O), Open Recent, and View > Chat / Rules / Hooks / MCP Servers / Skills & Sub-agents / Settings… (Ctrl/Cmd+1, 2, 3, 4, 5, comma). Pure: only
 * Electron's types are imported.
 */
export function buildAppMenuTemplate(o: AppMenuOptions): MenuItemConstructorOptions[] {
  const recent = o.recentProjects.slice(0, MAX_RECENT_IN_MENU);
  const recentItems: MenuItemConstructorOptions[] = recent.length
    ? recent.map((dir, i) => ({
        // `&` would be read as an accelerator marker on Windows/Linux.
        label: `${i < 9 ? `&${i + 1} ` : ''}${path.basename(dir).replace(/&/g, '&&')}`,
        sublabel: dir,
        toolTip: dir,
        click: () => o.openRecent(dir),
      }))
    : [{ label: 'No Recent Folders', enabled: false }];

  const file: MenuItemConstructorOptions = {
    label: '&File',
    submenu: [
      { label: 'Open Folder…', accelerator: 'CmdOrCtrl+O', click: () => o.openFolder() },
      { label: 'Open Recent', submenu: recentItems },
      { type: 'separator' },
      o.isMac ? { role: 'close' } : { role: 'quit' },
    ],
  };
  const edit: MenuItemConstructorOptions = {
    label: '&Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      { type: 'separator' },
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      { role: 'delete' },
      { type: 'separator' },
      { role: 'selectAll' },
    ],
  };
  const developer: MenuItemConstructorOptions[] = o.isPackaged
    ? []
    : [{ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, { type: 'separator' }];
  const view: MenuItemConstructorOptions = {
    label: '&View',
    submenu: [
      { label: '&Chat', accelerator: 'CmdOrCtrl+1', click: () => o.showView('chat') },
      { label: '&Rules', accelerator: 'CmdOrCtrl+2', click: () => o.showView('rules') },
      { label: '&Hooks', accelerator: 'CmdOrCtrl+3', click: () => o.showView('hooks') },
      { label: '&MCP Servers', accelerator: 'CmdOrCtrl+4', click: () => o.showView('mcp') },
      // `&&` is a literal ampersand in a menu label (a single `&` marks the access key).
      { label: 'S&kills && Sub-agents', accelerator: 'CmdOrCtrl+5', click: () => o.showView('skills') },
      { label: '&Settings…', accelerator: 'CmdOrCtrl+,', click: () => o.showView('settings') },
      { type: 'separator' },
      ...developer,
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  };
  const windowMenu: MenuItemConstructorOptions = {
    role: 'windowMenu',
  };
  const help: MenuItemConstructorOptions = {
    role: 'help',
    submenu: [{ label: `About ${o.appName}`, click: () => o.showView('about') }],
  };
  const template: MenuItemConstructorOptions[] = [file, edit, view, windowMenu, help];
  if (o.isMac) template.unshift({ role: 'appMenu' });
  return template;
}
