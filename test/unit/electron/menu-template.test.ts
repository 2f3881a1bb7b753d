import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { buildAppMenuTemplate } from '../../../src/main/shells/electron/menu-template';

function flatten(items: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return items.flatMap((i) => [i, ...(Array.isArray(i.submenu) ? flatten(i.submenu) : [])]);
}

const base = {
  appName: 'Gatehouse',
  isMac: false,
  isPackaged: true,
  recentProjects: [] as string[],
  openFolder: () => undefined,
  openRecent: () => undefined,
  showView: () => undefined,
};

describe('buildAppMenuTemplate', () => {
  it('has File / Edit / View / Window / Help with the standard roles and Ctrl/Cmd+O', () => {
    const menu = buildAppMenuTemplate(base);
    expect(menu.map((m) => m.label ?? m.role)).toEqual(['&File', '&Edit', '&View', 'windowMenu', 'help']);
    const all = flatten(menu);
    const roles = all.map((i) => i.role).filter(Boolean);
    for (const r of [
      'undo',
      'redo',
      'cut',
      'copy',
      'paste',
      'selectAll',
      'quit',
      'zoomIn',
      'zoomOut',
      'resetZoom',
      'windowMenu',
    ])
      expect(roles).toContain(r);
    expect(all.find((i) => i.label === 'Open Folder…')?.accelerator).toBe('CmdOrCtrl+O');
  });

  it('View > Chat / Rules / Hooks / MCP Servers / Skills & Sub-agents / Settings… show that view, with Ctrl/Cmd+1-5 and comma', () => {
    const shown: string[] = [];
    const all = flatten(buildAppMenuTemplate({ ...base, showView: (v) => shown.push(v) }));
    const items = ['&Chat', '&Rules', '&Hooks', '&MCP Servers', 'S&kills && Sub-agents', '&Settings…'].map((label) =>
      all.find((i) => i.label === label),
    );
    expect(items.map((i) => i?.accelerator)).toEqual([
      'CmdOrCtrl+1',
      'CmdOrCtrl+2',
      'CmdOrCtrl+3',
      'CmdOrCtrl+4',
      'CmdOrCtrl+5',
      'CmdOrCtrl+,',
    ]);
    for (const i of items) (i?.click as (() => void) | undefined)?.();
    expect(shown).toEqual(['chat', 'rules', 'hooks', 'mcp', 'skills', 'settings']);
  });

  it('offers reload and devtools only in development builds', () => {
    const packaged = flatten(buildAppMenuTemplate(base)).map((i) => i.role);
    expect(packaged).not.toContain('toggleDevTools');
    expect(packaged).not.toContain('reload');
    const dev = flatten(buildAppMenuTemplate({ ...base, isPackaged: false })).map((i) => i.role);
    expect(dev).toContain('toggleDevTools');
    expect(dev).toContain('reload');
  });

  it('lists recent folders (escaping &), opens them on click, and says when there are none', () => {
    const opened: string[] = [];
    let folders = 0;
    const menu = buildAppMenuTemplate({
      ...base,
      recentProjects: ['/home/me/R&D', '/home/me/web'],
      openRecent: (d) => opened.push(d),
      openFolder: () => folders++,
    });
    const recent = flatten(menu).find((i) => i.label === 'Open Recent')?.submenu as MenuItemConstructorOptions[];
    expect(recent.map((i) => i.label)).toEqual(['&1 R&&D', '&2 web']);
    recent[1]!.click!({} as never, undefined, {} as never);
    expect(opened).toEqual(['/home/me/web']);
    flatten(menu).find((i) => i.label === 'Open Folder…')!.click!({} as never, undefined, {} as never);
    expect(folders).toBe(1);
    const empty = flatten(buildAppMenuTemplate(base)).find((i) => i.label === 'Open Recent')
      ?.submenu as MenuItemConstructorOptions[];
    expect(empty).toEqual([{ label: 'No Recent Folders', enabled: false }]);
  });

  it('puts the app menu first on macOS', () => {
    const menu = buildAppMenuTemplate({ ...base, isMac: true });
    expect(menu[0]?.role).toBe('appMenu');
  });
});
