import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../fs/atomic-write';
import { PermissionModeSchema } from '../../shared/permission';
import type { FileSettings } from './settings-schema';

const FileSettingsSchema = z.object({
  mode: PermissionModeSchema.optional(),
  allow: z.array(z.string()),
  ask: z.array(z.string()),
  deny: z.array(z.string()),
  additionalDirectories: z.array(z.string()),
});
const CacheSchema = z.record(z.string(), FileSettingsSchema);

/**
 * The last good settings of each file, also kept on disk (in the user config directory, which the agent cannot
 * write), so that a settings file that is broken when a new process starts (each `gatehouse permissions check`,
 * a restarted app) still applies its last good version instead of nothing: a broken edit never loosens.
 */
export class LastGoodCache {
  readonly file: string;
  private memory: Record<string, FileSettings> | null = null;

  constructor(configDir: string) {
    this.file = path.join(configDir, 'settings-last-good.json');
  }

  private load(): Record<string, FileSettings> {
    if (this.memory) return this.memory;
    let loaded: Record<string, FileSettings> = {};
    try {
      const parsed = CacheSchema.safeParse(JSON.parse(fs.readFileSync(this.file, 'utf8')));
      if (parsed.success) loaded = parsed.data;
    } catch {
      loaded = {};
    }
    this.memory = loaded;
    return loaded;
  }

  get(settingsFile: string): FileSettings | null {
    return this.load()[settingsFile] ?? null;
  }

  /** Records a good parse; writes only when it differs from what is stored. Best effort: never throws. */
  set(settingsFile: string, settings: FileSettings | null): void {
    const all = this.load();
    const before = JSON.stringify(all[settingsFile] ?? null);
    if (before === JSON.stringify(settings)) return;
    if (settings === null) delete all[settingsFile];
    else all[settingsFile] = settings;
    try {
      writeFileAtomic(this.file, JSON.stringify(all, null, 2) + '\n');
    } catch {
      // The cache only helps the next process; failing to write it changes nothing now.
    }
  }
}
