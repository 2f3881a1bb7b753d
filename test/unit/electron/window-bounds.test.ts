import { describe, expect, it } from 'vitest';
import { displayLayoutKey, titleBarVisible, windowToRestore } from '../../../src/main/shells/electron/window-bounds';
import type { SavedWindow } from '../../../src/main/shells/electron/window-bounds';
import { fakeDisplay } from './helpers/fake-electron';

// Which saved bounds the window reopens with, for the displays connected now (pure; the main bundle saving and
// restoring them through the fake Electron: window-state.test.ts).

const laptop = fakeDisplay({ x: 0, y: 0, width: 1440, height: 900 }, 2);
const monitor = fakeDisplay({ x: 1440, y: 0, width: 2560, height: 1440 });
const above = fakeDisplay({ x: 0, y: -1080, width: 1920, height: 1080 });
const at = (x: number, y: number, width = 1000, height = 700): SavedWindow['bounds'] => ({ x, y, width, height });

describe('displayLayoutKey', () => {
  it('names an arrangement whatever order the OS lists its displays in; a changed resolution or scale is another', () => {
    expect(displayLayoutKey([laptop, monitor])).toBe(displayLayoutKey([monitor, laptop]));
    expect(displayLayoutKey([laptop])).not.toBe(displayLayoutKey([laptop, monitor]));
    expect(displayLayoutKey([fakeDisplay({ x: 0, y: 0, width: 1440, height: 900 }, 1)])).not.toBe(
      displayLayoutKey([laptop]),
    );
    expect(displayLayoutKey([fakeDisplay({ x: 0, y: 0, width: 1680, height: 1050 }, 2)])).not.toBe(
      displayLayoutKey([laptop]),
    );
  });
});

describe('titleBarVisible', () => {
  it('a window on a display, or straddling two, can be grabbed', () => {
    expect(titleBarVisible(at(100, 100), [laptop])).toBe(true);
    expect(titleBarVisible(at(1000, 200), [laptop, monitor])).toBe(true);
    // Mostly off the left edge, but 120 px of its title bar still on the screen.
    expect(titleBarVisible(at(-880, 300), [laptop])).toBe(true);
  });

  it('not when it sits on a display that is gone, above the top, under the menu bar, or with only a sliver showing', () => {
    expect(titleBarVisible(at(2000, 200), [laptop])).toBe(false); // it was on the monitor, now unplugged
    expect(titleBarVisible(at(100, -650), [laptop])).toBe(false); // only its bottom shows: the title bar is above
    expect(titleBarVisible(at(100, -10), [laptop])).toBe(false); // its title bar is under the 25 px menu bar
    expect(titleBarVisible(at(1390, 100), [laptop])).toBe(false); // 50 px of it at the right edge
    expect(titleBarVisible(at(100, 895), [laptop])).toBe(false); // below the bottom
    expect(titleBarVisible(at(100, -600), [laptop, above])).toBe(true); // a display above holds it
  });

  it('a window narrower than the visible minimum counts when all of its title bar shows', () => {
    expect(titleBarVisible(at(10, 40, 80, 80), [laptop])).toBe(true);
  });
});

describe('windowToRestore', () => {
  const both = displayLayoutKey([laptop, monitor]);
  const alone = displayLayoutKey([laptop]);
  const saved: Record<string, SavedWindow> = {
    [both]: { bounds: at(1600, 100, 2000, 1200), maximized: false },
    [alone]: { bounds: at(20, 40), maximized: true },
  };

  it('the window saved for the arrangement connected now', () => {
    expect(windowToRestore(saved, [monitor, laptop])).toEqual(saved[both]);
    expect(windowToRestore(saved, [laptop])).toEqual({ bounds: at(20, 40), maximized: true });
  });

  it('none for an arrangement never seen, none when no display is reported, none when the saved place is out of reach', () => {
    expect(windowToRestore(saved, [laptop, above])).toBeNull();
    expect(windowToRestore(saved, [])).toBeNull();
    expect(windowToRestore({ [alone]: { bounds: at(3000, 100), maximized: false } }, [laptop])).toBeNull();
  });
});
