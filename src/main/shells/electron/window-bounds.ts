// Which saved window bounds to restore for the displays connected now. Pure (no electron import): the displays come
// in as screen.getAllDisplays() returns them.

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The part of Electron's Display used here. */
export interface DisplayLike {
  bounds: Rect;
  workArea: Rect;
  scaleFactor: number;
}

/** A window as it is remembered: its normal (not maximised) bounds, and whether it was maximised. */
export interface SavedWindow {
  bounds: Rect;
  maximized: boolean;
}

/** The height of the strip along a window's top edge a person grabs to move it (its title bar, or near it). */
const TITLE_STRIP = 32;
/** How much of that strip must lie within one display's work area for the window to count as reachable. */
const MIN_VISIBLE_WIDTH = 100;
const MIN_VISIBLE_HEIGHT = 8;

/**
 * Names a set of connected displays (their positions, sizes and scales, in a fixed order), so the window is
 * remembered per arrangement: the laptop alone, the laptop with its monitor, and so on.
 */
export function displayLayoutKey(displays: readonly DisplayLike[]): string {
  return displays
    .map(({ bounds: b, scaleFactor }) => `${b.x},${b.y},${b.width}x${b.height}@${scaleFactor}`)
    .sort()
    .join(';');
}

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  return {
    width: Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x),
    height: Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y),
  };
}

/**
 * Whether a window placed at `bounds` can be reached: enough of its top strip (where it is dragged from) lies within
 * one display's work area (not under the menu bar or taskbar, not off every screen).
 */
export function titleBarVisible(bounds: Rect, displays: readonly DisplayLike[]): boolean {
  const strip = { x: bounds.x, y: bounds.y, width: bounds.width, height: Math.min(TITLE_STRIP, bounds.height) };
  return displays.some((d) => {
    const o = overlap(strip, d.workArea);
    return o.width >= Math.min(MIN_VISIBLE_WIDTH, strip.width) && o.height >= MIN_VISIBLE_HEIGHT;
  });
}

/**
 * The window to restore for the displays connected now: the one saved for this arrangement, if its title bar is
 * still reachable on one of them; else null (the window opens at its default size, where the OS puts it).
 */
export function windowToRestore(
  saved: Readonly<Record<string, SavedWindow>>,
  displays: readonly DisplayLike[],
): SavedWindow | null {
  if (displays.length === 0) return null;
  const entry = saved[displayLayoutKey(displays)];
  return entry && titleBarVisible(entry.bounds, displays) ? entry : null;
}
