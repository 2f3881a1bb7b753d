import { createHash } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { CheckpointEntrySchema } from '../../../shared/checkpoint-contract';
import type { CheckpointEntry, SkippedFile } from '../../../shared/checkpoint-contract';
import { writeFileAtomicAsync } from '../fs/atomic-write';
import { isMissing, readRegularFile } from '../fs/read-regular-file';

/**
 * Where a project's checkpoints live and the list of them: `<config dir>/checkpoints/<project key>/` holds `repo/`
 * (the shadow git repository) and `index.json` (the checkpoints, oldest first). The project's own folder is never
 * written to.
 */
const IndexSchema = z.object({
  version: z.literal(1),
  project: z.string(),
  entries: z.array(CheckpointEntrySchema),
});
export type { CheckpointEntry, SkippedFile };
export type CheckpointIndex = z.infer<typeof IndexSchema>;

export interface ProjectCheckpointPaths {
  dir: string;
  gitDir: string;
  indexFile: string;
}

export function checkpointPaths(configDir: string, projectRoot: string): ProjectCheckpointPaths {
  const key = createHash('sha256').update(projectRoot).digest('hex').slice(0, 20);
  const dir = path.join(configDir, 'checkpoints', key);
  return { dir, gitDir: path.join(dir, 'repo'), indexFile: path.join(dir, 'index.json') };
}

/** The index, or an empty one when there is none yet. A broken index is an error with its path (never overwritten). */
export async function readIndex(file: string, projectRoot: string): Promise<CheckpointIndex> {
  let text: string;
  try {
    text = await readRegularFile(file, { maxBytes: 64 * 1024 * 1024, what: 'checkpoint indexes' });
  } catch (err) {
    if (isMissing(err)) return { version: 1, project: projectRoot, entries: [] };
    throw err;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file}: not JSON (${(err as Error).message})`, { cause: err });
  }
  const parsed = IndexSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file}: ${issue?.path.join('.') || '(top level)'}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

export function writeIndex(file: string, index: CheckpointIndex): Promise<void> {
  return writeFileAtomicAsync(file, JSON.stringify(index, null, 1) + '\n');
}
