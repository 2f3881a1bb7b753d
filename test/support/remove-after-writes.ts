import fs from 'node:fs';
import { flushLastGoodWrites } from '../../src/main/settings/last-good-cache';

/**
 * Removes a test's temp folder once the settings' last-good entries this process is still recording there are
 * written: they are written in the background, under a lock a loaded machine can make wait, and one still making its
 * entry while the folder goes fails the removal (ENOTEMPTY).
 */
export async function removeAfterWrites(dir: string): Promise<void> {
  await flushLastGoodWrites();
  fs.rmSync(dir, { recursive: true, force: true });
}
