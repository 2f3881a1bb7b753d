import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { UpdateSettingsSchema } from '../../core/settings/settings-schema';
import { readUserSettingsYamlAsync, settingsBlock } from '../../core/settings/user-settings-yaml';
import type { UpdateFeed } from './updates';

/** What electron-builder writes to `<resources>/app-update.yml` from `publish` (the fields used here). */
const AppUpdateConfigSchema = z.looseObject({
  provider: z.string(),
  url: z.string().optional(),
  publisherName: z.union([z.string(), z.array(z.string())]).nullish(),
});
type AppUpdateConfig = z.infer<typeof AppUpdateConfigSchema>;

export interface UpdateFeedSources {
  configDir: string;
  /** A packaged app's resources folder (process.resourcesPath), where app-update.yml is; undefined otherwise. */
  resourcesDir: string | undefined;
  platform: NodeJS.Platform;
}

async function readBuiltInConfig(resourcesDir: string | undefined): Promise<AppUpdateConfig | null | string> {
  if (!resourcesDir) return null;
  const file = path.join(resourcesDir, 'app-update.yml');
  let text: string;
  try {
    text = await fs.promises.readFile(file, 'utf8');
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? null : `${file}: ${(err as Error).message}`;
  }
  try {
    const parsed = AppUpdateConfigSchema.safeParse(parse(text));
    return parsed.success ? parsed.data : `${file}: not an update configuration`;
  } catch (err) {
    return `${file}: ${(err as Error).message.split('\n')[0]}`;
  }
}

/** An address that can never be reached: the placeholder under the reserved .invalid domain. */
function isPlaceholder(url: string): boolean {
  try {
    return /(^|\.)invalid$/i.test(new URL(url).hostname);
  } catch {
    return true;
  }
}

/**
 * Where the desktop app looks for updates, read without blocking before every check:
 * 1. on Windows, only a code-signed build (app-update.yml names its publisher), since an unsigned build cannot
 *    verify an installer's signature and electron-updater would skip the check silently;
 * 2. `updates.url` in the user's own settings.yaml (https only; a malformed value turns updates off, never
 *    falls back to another address);
 * 3. else the address built into the package (`publish.url` in build/electron-builder.yml), unless it is the
 *    `.invalid` placeholder.
 */
export async function resolveUpdateFeed(s: UpdateFeedSources): Promise<UpdateFeed> {
  const builtIn = await readBuiltInConfig(s.resourcesDir);
  if (typeof builtIn === 'string') return { off: `The package's update configuration cannot be read (${builtIn}).` };
  if (s.platform === 'win32') {
    const publisher = builtIn?.publisherName;
    if (!publisher || (Array.isArray(publisher) && publisher.length === 0)) {
      return {
        off: 'This Windows build is not code-signed, so the signature of an update could not be verified: updates are off.',
      };
    }
  }
  const { file, value, problem } = await readUserSettingsYamlAsync(s.configDir);
  if (problem) return { off: `Updates are off until the settings can be read: ${problem}` };
  const block = settingsBlock(value, 'updates');
  if (block !== undefined && block !== null) {
    const parsed = UpdateSettingsSchema.safeParse(block);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = ['updates', ...(issue?.path ?? []).map(String)].join('.');
      return { off: `${file}: ${where}: ${issue?.message ?? 'invalid'} (updates are off until it is fixed)` };
    }
    if (parsed.data.url) return { url: parsed.data.url };
  }
  if (
    builtIn?.provider === 'generic' &&
    builtIn.url &&
    !isPlaceholder(builtIn.url) &&
    builtIn.url.startsWith('https://')
  )
    return { url: builtIn.url };
  return { off: `No update server is set: add updates.url (an https:// folder) to ${file}.` };
}
