import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CHECKPOINT_DEFAULTS,
  readCheckpointSettings,
  saveCheckpointSettings,
} from '../../../src/main/core/checkpoints/checkpoint-settings';
import { CheckpointStore } from '../../../src/main/core/checkpoints/checkpoint-store';
import { checkpointUsage, deleteProjectCheckpoints } from '../../../src/main/core/checkpoints/project-checkpoints';

// The Settings page's writer of the `checkpoints:` block in the user's settings.yaml, and deleting a project's
// checkpoints: real files, real git.

let root: string;
let configDir: string;
let file: string;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-ckpt-settings-')));
  configDir = path.join(root, 'config');
  fs.mkdirSync(configDir);
  file = path.join(configDir, 'settings.yaml');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const values = { enabled: false, maxFileBytes: 2 * 1024 * 1024, maxFiles: 1234, retentionDays: 7 };

describe('saving checkpoint settings', () => {
  it('writes every value into checkpoints:, keeping comments and other keys; the reader then uses them', async () => {
    fs.writeFileSync(
      file,
      '# my settings: this comment stays\nmodel:\n  name: claude-x # my model\ncheckpoints:\n  # keep a month\n  retentionDays: 30\nui:\n  theme: dark\n',
    );
    await saveCheckpointSettings(configDir, values);
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toContain('# my settings: this comment stays');
    expect(text).toContain('name: claude-x # my model');
    expect(text).toContain('# keep a month');
    expect(text).toMatch(/ui:\n\s+theme: dark/);
    expect(text).toMatch(
      /checkpoints:\n(\s+#.*\n)?\s+retentionDays: 7\n\s+enabled: false\n\s+maxFileBytes: 2097152\n\s+maxFiles: 1234\n/,
    );
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(await readCheckpointSettings(configDir)).toEqual({ ...values, problem: null });
    // No temporary file is left next to it.
    expect(fs.readdirSync(configDir)).toEqual(['settings.yaml']);
  });

  it('creates the file when there is none', async () => {
    await saveCheckpointSettings(configDir, { ...CHECKPOINT_DEFAULTS, retentionDays: 0.5 });
    expect(await readCheckpointSettings(configDir)).toEqual({
      ...CHECKPOINT_DEFAULTS,
      retentionDays: 0.5,
      problem: null,
    });
  });

  it.each([
    ['a value of the wrong type', 'checkpoints:\n  retentionDays: soon\n', 'checkpoints.retentionDays'],
    ['an unknown key', 'checkpoints:\n  keepForever: true\n', 'checkpoints'],
    ['a value over the limit', 'checkpoints:\n  maxFileBytes: 99999999999\n', 'at most 1 GiB'],
    ['a block that is not a mapping', 'checkpoints: [1, 2]\n', 'not a mapping'],
    ['a file that is not YAML', 'checkpoints:\n  enabled: true\n bad: [\n', 'not valid YAML'],
  ])('a malformed block (%s) is refused with the file and reason, and left as it is', async (_, text, reason) => {
    fs.writeFileSync(file, text);
    const err = await saveCheckpointSettings(configDir, values).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toContain(file);
    expect(err?.message).toContain(reason);
    expect(err?.message).toContain('nothing was changed');
    expect(fs.readFileSync(file, 'utf8')).toBe(text);
    // Meanwhile checkpoints run with the defaults, and say why.
    const read = await readCheckpointSettings(configDir);
    expect(read).toMatchObject(CHECKPOINT_DEFAULTS);
    expect(read.problem).toContain(file);
  });
});

describe("deleting a project's checkpoints", () => {
  it('removes its shadow repository and index, not the files or other projects; the next checkpoint starts afresh', async () => {
    const project = path.join(root, 'project');
    const other = path.join(root, 'other');
    for (const dir of [project, other]) {
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, 'a.txt'), 'a\n');
    }
    const store = new CheckpointStore(configDir, project);
    const otherStore = new CheckpointStore(configDir, other);
    await store.create({ sessionId: 's', runId: 'r1', prompt: 'one' });
    await store.create({ sessionId: 's', runId: 'r2', prompt: 'two' });
    await otherStore.create({ sessionId: 's', runId: 'r1', prompt: 'other' });

    const usage = await checkpointUsage(configDir, project);
    expect(usage).toMatchObject({ checkpoints: 2, folder: store.paths.dir, problem: null });
    expect(usage.bytes).toBeGreaterThan(1000);

    expect(await deleteProjectCheckpoints(configDir, project)).toBe(2);
    expect(fs.existsSync(store.paths.dir)).toBe(false);
    expect(await checkpointUsage(configDir, project)).toMatchObject({ bytes: 0, checkpoints: 0 });
    expect(fs.readFileSync(path.join(project, 'a.txt'), 'utf8')).toBe('a\n');
    expect((await otherStore.list()).map((e) => e.prompt)).toEqual(['other']);

    const next = await store.create({ sessionId: 's', runId: 'r3', prompt: 'three' });
    expect(next.error).toBeUndefined();
    expect((await store.list()).map((e) => e.prompt)).toEqual(['three']);
  });

  it('a broken index is named in the usage, and deleting still removes everything', async () => {
    const project = path.join(root, 'project');
    fs.mkdirSync(project);
    const store = new CheckpointStore(configDir, project);
    await store.create({ sessionId: 's', runId: 'r1', prompt: 'one' });
    fs.writeFileSync(store.paths.indexFile, '{ broken');
    const usage = await checkpointUsage(configDir, project);
    expect(usage.checkpoints).toBeNull();
    expect(usage.problem).toContain(`${store.paths.indexFile}: not JSON`);
    expect(await deleteProjectCheckpoints(configDir, project)).toBeNull();
    expect(fs.existsSync(store.paths.dir)).toBe(false);
  });
});
