import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomicAsync } from '../../core/fs/atomic-write';
import { isMissing, readFailure, readRegularFile } from '../../core/fs/read-regular-file';
import { displayLayoutKey } from './window-bounds';
import type { DisplayLike, SavedWindow } from './window-bounds';

// The desktop window as it was last left, in <config>/window-state.json: its bounds and maximised state per display
// arrangement, and the last project it showed. Read once at start, written atomically (a temp file, then a rename).

const MAX_BYTES = 256 * 1024;
/** Arrangements remembered: the most recently used ones are kept. */
const MAX_LAYOUTS = 16;
const coordinate = z.number().int().min(-1_000_000).max(1_000_000);
const size = z.number().int().min(1).max(1_000_000);

const SavedWindowSchema = z.strictObject({
  bounds: z.strictObject({ x: coordinate, y: coordinate, width: size, height: size }),
  maximized: z.boolean(),
  savedAt: z.string().max(64),
});

const WindowStateFileSchema = z.object({
  version: z.literal(1),
  layouts: z.record(z.string().max(4096), SavedWindowSchema),
  lastProject: z.string().min(1).max(4096).nullable(),
});
type WindowStateData = z.infer<typeof WindowStateFileSchema>;

const WINDOW_STATE_FILE = 'window-state.json';

export class WindowStateFile {
  private data: WindowStateData = { version: 1, layouts: {}, lastProject: null };
  private writes: Promise<void> = Promise.resolve();

  private constructor(
    private readonly file: string,
    private readonly log: (line: string) => void,
    private readonly now: () => Date,
  ) {}

  /** Reads the saved state; a missing file is a first start, a malformed one is said in the log and started afresh. */
  static async open(
    configDir: string,
    log: (line: string) => void,
    now: () => Date = () => new Date(),
  ): Promise<WindowStateFile> {
    const state = new WindowStateFile(path.join(configDir, WINDOW_STATE_FILE), log, now);
    try {
      const text = await readRegularFile(state.file, { maxBytes: MAX_BYTES, what: 'the window state' });
      const parsed = WindowStateFileSchema.safeParse(JSON.parse(text));
      if (parsed.success) state.data = parsed.data;
      else log(`${state.file}: not a window state file (${parsed.error.issues[0]?.message ?? 'invalid'}): ignored`);
    } catch (err) {
      if (!isMissing(err))
        log(`${state.file}: ${err instanceof SyntaxError ? `not JSON (${err.message})` : readFailure(err)}: ignored`);
    }
    return state;
  }

  /** The saved windows by display arrangement (see windowToRestore). */
  layouts(): Readonly<Record<string, SavedWindow>> {
    return this.data.layouts;
  }

  lastProject(): string | null {
    return this.data.lastProject;
  }

  /** Remembers the window for the displays connected now. */
  saveWindow(window: SavedWindow, displays: readonly DisplayLike[]): Promise<void> {
    if (displays.length === 0) return this.writes;
    const key = displayLayoutKey(displays);
    const entry = { bounds: { ...window.bounds }, maximized: window.maximized, savedAt: this.now().toISOString() };
    const kept = Object.entries(this.data.layouts)
      .filter(([k]) => k !== key)
      .sort(([, a], [, b]) => b.savedAt.localeCompare(a.savedAt))
      .slice(0, MAX_LAYOUTS - 1);
    this.data = { ...this.data, layouts: Object.fromEntries([[key, entry], ...kept]) };
    return this.write();
  }

  saveLastProject(project: string): Promise<void> {
    if (this.data.lastProject === project) return this.writes;
    this.data = { ...this.data, lastProject: project };
    return this.write();
  }

  /** Resolves once every save so far is on disk. */
  settled(): Promise<void> {
    return this.writes;
  }

  /** One write at a time, each of the state as it is then; a failed one is logged (the window state only helps). */
  private write(): Promise<void> {
    this.writes = this.writes
      .then(() => writeFileAtomicAsync(this.file, JSON.stringify(this.data, null, 2) + '\n'))
      .catch((err: unknown) =>
        this.log(`${this.file}: not saved: ${err instanceof Error ? err.message : String(err)}`),
      );
    return this.writes;
  }
}

/** The part of BrowserWindow that is remembered. */
export interface PlacedWindow {
  on(event: 'resize' | 'move' | 'maximize' | 'unmaximize' | 'close' | 'closed', listener: () => void): unknown;
  getNormalBounds(): { x: number; y: number; width: number; height: number };
  isMaximized(): boolean;
  isDestroyed(): boolean;
}

/**
 * Saves `window`'s bounds as the person moves, resizes or maximises it (once it has been still for `quietMs`, so a
 * drag is one write, and a crash loses at most that) and when it closes.
 */
export function rememberWindow(window: PlacedWindow, save: (saved: SavedWindow) => void, quietMs = 1_000): void {
  let timer: NodeJS.Timeout | null = null;
  const saveNow = (): void => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (window.isDestroyed()) return;
    save({ bounds: window.getNormalBounds(), maximized: window.isMaximized() });
  };
  const later = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(saveNow, quietMs);
    timer.unref();
  };
  for (const event of ['resize', 'move', 'maximize', 'unmaximize'] as const) window.on(event, later);
  window.on('close', saveNow);
  window.on('closed', () => {
    if (timer) clearTimeout(timer);
  });
}
