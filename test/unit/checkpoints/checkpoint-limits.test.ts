import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CheckpointStore } from '../../../src/main/core/checkpoints/checkpoint-store';

// A large project within the limits gets a whole checkpoint, quickly restorable; one over `checkpoints.maxFiles` gets
// none, and the entry says why (the prompt still runs). Real files, real git.

let root: string;
let configDir: string;
let project: string;
const FILES = 2_100;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-ckpt-limits-')));
  configDir = path.join(root, 'config');
  project = path.join(root, 'project');
  fs.mkdirSync(configDir);
  for (let d = 0; d < 30; d++) {
    fs.mkdirSync(path.join(project, 'src', `d${d}`), { recursive: true });
    for (let f = 0; f < FILES / 30; f++)
      fs.writeFileSync(path.join(project, 'src', `d${d}`, `f${f}.ts`), `export const v${d}_${f} = ${f};\n`);
  }
  // An ignored dependency folder bigger than the limit below: never counted, never copied.
  fs.writeFileSync(path.join(project, '.gitignore'), 'node_modules/\n');
  fs.mkdirSync(path.join(project, 'node_modules', 'dep'), { recursive: true });
  for (let f = 0; f < 600; f++) fs.writeFileSync(path.join(project, 'node_modules', 'dep', `m${f}.js`), 'x\n');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const file = (rel: string): string => path.join(project, rel);

describe('checkpoints of large projects', () => {
  it(`${FILES} files (and an ignored node_modules): every file is in the checkpoint and comes back`, async () => {
    fs.writeFileSync(path.join(configDir, 'settings.yaml'), `checkpoints:\n  maxFiles: ${FILES + 10}\n`);
    const store = new CheckpointStore(configDir, project);
    const entry = await store.create({ sessionId: 's', runId: 'r1', prompt: 'big change' });
    expect(entry.error).toBeUndefined();
    expect(entry.skipped).toEqual([]);
    // The "agent" rewrites a folder, deletes another, and touches node_modules (ignored: left alone).
    for (let f = 0; f < 50; f++) fs.writeFileSync(file(`src/d3/f${f}.ts`), 'changed\n');
    fs.rmSync(file('src/d7'), { recursive: true });
    fs.writeFileSync(file('src/new.ts'), 'new\n');
    fs.writeFileSync(file('node_modules/dep/m1.js'), 'y\n');
    await store.recordAfter(entry.id);

    const diff = await store.diff(entry.id);
    expect(diff.files.filter((f) => f.action === 'restore')).toHaveLength(50);
    expect(diff.files.filter((f) => f.action === 'recreate')).toHaveLength(FILES / 30);
    expect(diff.files.filter((f) => f.action === 'delete').map((f) => f.path)).toEqual(['src/new.ts']);
    expect(diff.files.some((f) => f.path.startsWith('node_modules/'))).toBe(false);

    const result = await store.restore(entry.id, { overwriteExternal: false, sessionId: 's' });
    expect(result.kept).toEqual([]);
    expect(result.restored).toHaveLength(50 + FILES / 30 + 1);
    expect(fs.readFileSync(file('src/d3/f42.ts'), 'utf8')).toBe('export const v3_42 = 42;\n');
    expect(fs.readFileSync(file('src/d7/f69.ts'), 'utf8')).toBe('export const v7_69 = 69;\n');
    expect(fs.existsSync(file('src/new.ts'))).toBe(false);
    expect(fs.readFileSync(file('node_modules/dep/m1.js'), 'utf8')).toBe('y\n');
  });

  it('over checkpoints.maxFiles: no checkpoint, the entry says how many files and the limit; nothing is copied', async () => {
    fs.writeFileSync(path.join(configDir, 'settings.yaml'), 'checkpoints:\n  maxFiles: 1000\n');
    const store = new CheckpointStore(configDir, project);
    const entry = await store.create({ sessionId: 's', runId: 'r1', prompt: 'too big' });
    expect(entry.commit).toBeUndefined();
    expect(entry.error).toMatch(
      /has 2101 files that are not ignored: more than the checkpoint limit of 1000 \(checkpoints\.maxFiles: Settings › Checkpoints/,
    );
    const [listed] = await store.list();
    expect(listed?.error).toBe(entry.error);
    await expect(store.restore(entry.id, { overwriteExternal: false, sessionId: 's' })).rejects.toThrow(
      /holds no files/,
    );
  });
});
