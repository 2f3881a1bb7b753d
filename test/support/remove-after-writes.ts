import fs from 'node:fs';
import { flushLogs } from '../../src/main/core/log/logger';
import { flushLastGoodWrites } from '../../src/main/core/settings/last-good-cache';

/**
 * Removes a test's temp folder once what this process is still writing there in the background is written: the
 * settings' last-good entries (under a lock a loaded machine can make wait) and the app's log lines (a stopped worker's
 * last line goes to `<config>/logs/main.log`, whose folder the log writer makes first). One still being written while
 * the folder goes fails the removal (ENOTEMPTY: CI saw it after a worker's stop).
 */
export async function removeAfterWrites(dir: string): Promise<void> {
  await Promise.all([flushLastGoodWrites(), flushLogs()]);
  fs.rmSync(dir, { recursive: true, force: true });
}
