import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../fs/atomic-write';

const RecentFileSchema = z.object({ paths: z.array(z.string()) });
const MAX_RECENT = 20;

/** Recently opened project folders, newest first, kept in the user config dir. */
export class RecentProjects {
  private readonly file: string;
  constructor(configDir: string) {
    this.file = path.join(configDir, 'recent-projects.json');
  }

  list(): string[] {
    try {
      const parsed = RecentFileSchema.safeParse(JSON.parse(fs.readFileSync(this.file, 'utf8')));
      return parsed.success ? parsed.data.paths : [];
    } catch {
      return [];
    }
  }

  add(dir: string): void {
    const paths = [dir, ...this.list().filter((p) => p !== dir)].slice(0, MAX_RECENT);
    writeFileAtomic(this.file, JSON.stringify({ paths }, null, 2) + '\n');
  }
}
