import { describe, expect, it } from 'vitest';
import { takeRefusedSwitches } from '../../../src/main/shells/electron/debug-switches';
import {
  launchFromSecondInstance,
  launchTarget,
  projectFromArgs,
  userArgs,
} from '../../../src/main/shells/electron/launch-args';

function commandLine(switches: string[]) {
  const set = new Set(switches);
  return { set, hasSwitch: (n: string) => set.has(n), removeSwitch: (n: string) => void set.delete(n) };
}

describe('takeRefusedSwitches (packaged builds)', () => {
  it("finds and removes remote-debugging switches from Chromium's command line", () => {
    const cl = commandLine(['remote-debugging-port', 'remote-debugging-address', 'enable-logging']);
    expect(
      takeRefusedSwitches(cl, ['/opt/Gatehouse/gatehouse-desktop', '--remote-debugging-port=9222']).sort(),
    ).toEqual(['remote-debugging-address', 'remote-debugging-port']);
    expect([...cl.set]).toEqual(['enable-logging']);
  });

  it('also finds Node inspector and pipe forms in argv, and nothing after --', () => {
    expect(takeRefusedSwitches(commandLine([]), ['x', '--inspect=127.0.0.1:9229', '--remote-debugging-pipe'])).toEqual([
      'inspect',
      'remote-debugging-pipe',
    ]);
    expect(takeRefusedSwitches(commandLine([]), ['x', '--', '--remote-debugging-port=1'])).toEqual([]);
    expect(takeRefusedSwitches(commandLine([]), ['x', '--remote-debugging-portal', '/home/me/--inspect'])).toEqual([]);
  });
});

describe('the folder a launch asks to open', () => {
  it("takes the user's arguments after the executable (and after the app folder in development)", () => {
    expect(
      userArgs(['/opt/Gatehouse/gatehouse-desktop', 'proj'], false, '/opt/Gatehouse/resources/app.asar', '/home/me'),
    ).toEqual(['proj']);
    expect(userArgs(['/usr/bin/electron', '.', 'proj'], true, '/work/app', '/work/app')).toEqual(['proj']);
    // A harness's own arguments before the app folder (Playwright's `-r loader.js`) are not the user's.
    expect(userArgs(['/usr/bin/electron', '-r', '/x/loader.js', '/work/app'], true, '/work/app', '/tmp')).toEqual([]);
    expect(userArgs(['/usr/bin/electron', '--inspect', 'elsewhere'], true, '/work/app', '/tmp')).toEqual([]);
  });

  it('is the first argument that is not a switch, resolved against the working directory', () => {
    expect(projectFromArgs(['--no-sandbox', '-psn_0_1234', 'code/app', 'other'], '/home/me')).toBe('/home/me/code/app');
    expect(projectFromArgs(['/abs/dir'], '/home/me')).toBe('/abs/dir');
    expect(projectFromArgs(['--', '--weird-name'], '/home/me')).toBe('/home/me/--weird-name');
    expect(projectFromArgs(['--enable-logging'], '/home/me')).toBeNull();
    expect(projectFromArgs(['', 'a\0b'], '/home/me')).toBeNull();
  });

  it("a second instance's additionalData wins over its reordered argv; malformed data falls back to argv", () => {
    expect(
      launchFromSecondInstance(['/exe', '--original-process-start-time=5', 'b'], '/x', { args: ['a'], cwd: '/w' }),
    ).toEqual({ folder: '/w/a' });
    expect(
      launchFromSecondInstance(['/exe', '--original-process-start-time=5', 'b'], '/x', { args: 'a', cwd: '/w' }),
    ).toEqual({ folder: '/x/b' });
    expect(launchFromSecondInstance(['/exe'], '/x', { args: [], cwd: '/w', extra: 1 })).toBeNull();
    expect(launchFromSecondInstance(['/exe'], '/x', null)).toBeNull();
  });

  it('a gatehouse: link (how Windows and Linux pass one) wins, and every other argument is then ignored', () => {
    const link = 'gatehouse://open?path=%2Fsrv%2Fapp';
    expect(launchTarget(['--', link], '/home/me')).toEqual({ link });
    // A crafted link that smuggles a second argument in: the folder beside it is not opened unasked.
    expect(launchTarget(['gatehouse://open?path=x', '/home/me/secret-project'], '/home/me')).toEqual({
      link: 'gatehouse://open?path=x',
    });
    expect(launchTarget(['/home/me/a', 'GATEHOUSE://OPEN'], '/')).toEqual({ link: 'GATEHOUSE://OPEN' });
    expect(launchFromSecondInstance(['/exe', link], '/x', undefined)).toEqual({ link });
    expect(launchTarget(['code/gatehouse-notes'], '/home/me')).toEqual({ folder: '/home/me/code/gatehouse-notes' });
    expect(launchTarget([], '/home/me')).toBeNull();
  });
});
