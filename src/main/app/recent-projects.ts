import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomicAsync } from '../fs/atomic-write';
import { MAX_STATE_BYTES, readRegularFileSync } from '../fs/read-regular-file';
import { withStateLock } from '../fs/state-lock';

const RecentFileSchema = z.object({ paths: z.array(z.string()) });
const MAX_RECENT = 20;

/** Recently opened project folders, newest first, kept in the user config dir. */
export class RecentProjects {
  private readonly file: string;
  private pending: Promise<void> = Promise.resolve();
  /** This process's view, updated at once by `add` (the desktop menu reads it right after opening a folder). */
  private memory: string[] | null = null;

  constructor(configDir: string) {
    this.file = path.join(configDir, 'recent-projects.json');
  }

  list(): string[] {
    return this.memory ?? this.read();
  }

  private read(): string[] {
    try {
      const parsed = RecentFileSchema.safeParse(
        JSON.parse(readRegularFileSync(this.file, { maxBytes: MAX_STATE_BYTES, what: 'the recent projects list' })),
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
          const paths = first(this.read());
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
