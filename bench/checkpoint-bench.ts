import fs from 'node:fs';
import path from 'node:path';
import { CheckpointStore } from '../src/main/core/checkpoints/checkpoint-store';
import { round } from './stats';

const FILES = 10_000;

/**
 * What a checkpoint costs before a prompt on a large project (10,000 files of ~1 KB in 100 folders, plus an ignored
 * node_modules of 5,000 files): checkpoint_first_ms (the first one: every file hashed), checkpoint_next_ms (the
 * median of 5 after a run that changed 10 files: git's stat cache at work), checkpoint_diff_ms and
 * checkpoint_restore_ms (of those 10 files).
 */
export async function benchCheckpoints(configDir: string): Promise<Record<string, number>> {
  const project = path.join(configDir, 'checkpoint-project');
  const line = 'export const value = "a line of a source file that is long enough";\n';
  for (let d = 0; d < 100; d++) {
    const dir = path.join(project, 'src', `m${d}`);
    await fs.promises.mkdir(dir, { recursive: true });
    await Promise.all(
      Array.from({ length: FILES / 100 }, (_, f) => fs.promises.writeFile(path.join(dir, `f${f}.ts`), line.repeat(15))),
    );
  }
  for (let d = 0; d < 50; d++) {
    const dir = path.join(project, 'node_modules', `p${d}`);
    await fs.promises.mkdir(dir, { recursive: true });
    await Promise.all(Array.from({ length: 100 }, (_, f) => fs.promises.writeFile(path.join(dir, `i${f}.js`), line)));
  }
  await fs.promises.writeFile(path.join(project, '.gitignore'), 'node_modules/\n');
  const store = new CheckpointStore(path.join(configDir, 'checkpoint-config'), project);
  const timed = async <T>(fn: () => Promise<T>): Promise<[T, number]> => {
    const t = process.hrtime.bigint();
    const value = await fn();
    return [value, Number(process.hrtime.bigint() - t) / 1e6];
  };
  const [first, firstMs] = await timed(() => store.create({ sessionId: 'bench', runId: 'r0', prompt: 'bench' }));
  if (first.error) throw new Error(`checkpoint bench: ${first.error}`);
  await store.recordAfter(first.id);
  const next: number[] = [];
  let last = first;
  for (let i = 1; i <= 5; i++) {
    const [entry, ms] = await timed(() => store.create({ sessionId: 'bench', runId: `r${i}`, prompt: 'bench' }));
    next.push(ms);
    for (let f = 0; f < 10; f++)
      await fs.promises.appendFile(path.join(project, 'src', `m${f}`, `f${i}.ts`), '// edit\n');
    await store.recordAfter(entry.id);
    last = entry;
  }
  const [, diffMs] = await timed(() => store.diff(last.id));
  const [, restoreMs] = await timed(() => store.restore(last.id, { overwriteExternal: false, sessionId: 'bench' }));
  next.sort((a, b) => a - b);
  return {
    checkpoint_first_ms: round(firstMs),
    checkpoint_next_ms: round(next[2]!),
    checkpoint_diff_ms: round(diffMs),
    checkpoint_restore_ms: round(restoreMs),
  };
}
