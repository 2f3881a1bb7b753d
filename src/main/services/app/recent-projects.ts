import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomicAsync } from '../../core/fs/atomic-write';
import { MAX_STATE_BYTES, readRegularFile } from '../../core/fs/read-regular-file';
import { withStateLock } from '../../core/fs/state-lock';

const RecentFileSchema = z.object({ paths: z.array(z.string()) });
const MAX_RECENT = 20;

/** Recently opened project folders, newest first, kept in the user config dir. */
export class RecentProjects {
  private readonly file: string;
  private pending: Promise<void>;
  /** This process's view, updated at once by `add` (the desktop menu reads it right after opening a folder). */
  private memory: string[] = [];

  constructor(configDir: string) {
    this.file = path.join(configDir, 'recent-projects.json');
    // Read once without blocking; `settled()` says when it is in (an `add` meanwhile comes first).
    this.pending = this.read().then((paths) => {
      this.memory = [...this.memory, ...paths.filter((p) => !this.memory.includes(p))].slice(0, MAX_RECENT);
    });
  }

  /** The list as this process knows it (no disk access): read at start (see `settled`), then kept by `add`. */
  list(): string[] {
    return this.memory;
  }

  private async read(): Promise<string[]> {
    try {
      const parsed = RecentFileSchema.safeParse(
        JSON.parse(await readRegularFile(this.file, { maxBytes: MAX_STATE_BYTES, what: 'the recent projects list' })),
      );
      return parsed.success ? parsed.data.paths : [];
    } catch {
      return [];
    }
  }

  /** Puts `dir` first: a read-modify-write under the file's lock (another window or process may add at once). */
  add(dir: string): Promise<void> {
    const first = (paths: string[]): string[] => [dir, ...paths.filter((p) => p !== dir)].slice(0, MAX_RECENT);
    this.memory = first(this.list());
    this.pending = this.pending
      .then(() =>
        withStateLock(this.file, async () => {
          // Re-read inside the lock: another window or process may have added its own since.
          const paths = first(await this.read());
          await writeFileAtomicAsync(this.file, JSON.stringify({ paths }, null, 2) + '\n');
          this.memory = paths;
        }),
      )
      .catch(() => undefined); // the list only helps the person: a failed write changes nothing else
    return this.pending;
  }

  /** Resolves once every `add` so far is written. */
  settled(): Promise<void> {
    return this.pending;
  }
}
