import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { desktopAppLocations, findDesktopApp } from '../../../src/main/shells/cli/desktop-app';

// Where `gatehouse open` looks for the desktop app on each OS, and what GATEHOUSE_DESKTOP may name. The built CLI
// starting a stand-in app, or the browser shell without one: test/integration/cli-open.test.ts.

let root: string;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-desktop-app-')));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('desktopAppLocations', () => {
  it('each OS: where its package installs the app (per user first on Windows; ~/Applications on macOS too)', () => {
    expect(desktopAppLocations({ HOME: '/home/me' }, 'linux')).toEqual([
      '/usr/bin/gatehouse-desktop',
      '/opt/Gatehouse/gatehouse-desktop',
    ]);
    expect(desktopAppLocations({ HOME: '/Users/me' }, 'darwin')).toEqual([
      '/Applications/Gatehouse.app/Contents/MacOS/Gatehouse',
      '/Users/me/Applications/Gatehouse.app/Contents/MacOS/Gatehouse',
    ]);
    expect(
      desktopAppLocations(
        { LOCALAPPDATA: 'C:\\Users\\me\\AppData\\Local', ProgramFiles: 'C:\\Program Files' },
        'win32',
      ),
    ).toEqual([
      'C:\\Users\\me\\AppData\\Local\\Programs\\Gatehouse\\Gatehouse.exe',
      'C:\\Program Files\\Gatehouse\\Gatehouse.exe',
    ]);
    expect(desktopAppLocations({}, 'win32')).toEqual([]);
  });
});

describe('findDesktopApp with GATEHOUSE_DESKTOP', () => {
  it('an executable file: that one', () => {
    const app = path.join(root, 'gatehouse-desktop');
    fs.writeFileSync(app, '#!/bin/sh\n', { mode: 0o755 });
    expect(findDesktopApp({ GATEHOUSE_DESKTOP: app }, 'linux')).toEqual({ file: app });
  });

  it('on macOS, an .app bundle: the executable inside it', () => {
    const bundle = path.join(root, 'Gatehouse.app');
    fs.mkdirSync(path.join(bundle, 'Contents', 'MacOS'), { recursive: true });
    fs.writeFileSync(path.join(bundle, 'Contents', 'MacOS', 'Gatehouse'), '#!/bin/sh\n', { mode: 0o755 });
    expect(findDesktopApp({ GATEHOUSE_DESKTOP: `${bundle}/` }, 'darwin')).toEqual({
      file: path.join(bundle, 'Contents', 'MacOS', 'Gatehouse'),
    });
  });

  it('a missing, non-executable, folder or relative path: an error naming it', () => {
    const plain = path.join(root, 'plain');
    fs.writeFileSync(plain, 'x', { mode: 0o644 });
    for (const named of [path.join(root, 'missing'), plain, root]) {
      expect(findDesktopApp({ GATEHOUSE_DESKTOP: named }, 'linux'), named).toEqual({
        error: `GATEHOUSE_DESKTOP is ${named}, but ${named} is not an executable file`,
      });
    }
    expect(findDesktopApp({ GATEHOUSE_DESKTOP: 'bin/app' }, 'linux')).toEqual({
      error: 'GATEHOUSE_DESKTOP must be an absolute path to the desktop app, not "bin/app"',
    });
  });

  it('unset or empty: the install locations, listed when none has it', () => {
    const found = findDesktopApp({ GATEHOUSE_DESKTOP: '' }, 'win32');
    expect(found).toEqual({ none: [] });
  });
});
