import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CheckpointStore } from '../../../src/main/checkpoints/checkpoint-store';

// A folder a checkpoint holds that the project ignores since (node_modules added to .gitignore after the checkpoint):
// like every ignored file, out of the checkpoints' reach. A restore neither lists nor rewrites it. Real files, real git.

let root: string;
let configDir: string;
let project: string;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-ckpt-ignored-since-')));
  configDir = path.join(root, 'config');
  project = path.join(root, 'project');
  fs.mkdirSync(configDir);
  fs.mkdirSync(path.join(project, 'deps'), { recursive: true });
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const file = (rel: string): string => path.join(project, rel);

describe('files ignored since a checkpoint', () => {
  it('are left as they are by a restore, and not in its preview', async () => {
    fs.writeFileSync(file('app.txt'), 'v1\n');
    fs.writeFileSync(file('deps/lib.js'), 'old dependency\n');
    const store = new CheckpointStore(configDir, project);
    const entry = await store.create({ sessionId: 's', runId: 'r1', prompt: 'work' });
    expect(entry.error).toBeUndefined();
    // Since: the person ignores deps/ and installs a newer dependency; the agent changes app.txt and removes lib.js.
    fs.writeFileSync(file('.gitignore'), 'deps/\n');
    fs.writeFileSync(file('app.txt'), 'v2\n');
    fs.rmSync(file('deps/lib.js'));
    fs.writeFileSync(file('deps/new.js'), 'new dependency\n');
    await store.recordAfter(entry.id);

    const diff = await store.diff(entry.id);
    expect(diff.files.map((f) => `${f.action} ${f.path}`).sort()).toEqual(['delete .gitignore', 'restore app.txt']);
    expect(diff.patch).not.toContain('deps/lib.js');
    await store.restore(entry.id, { overwriteExternal: true, sessionId: 's' });
    expect(fs.readFileSync(file('app.txt'), 'utf8')).toBe('v1\n');
    expect(fs.existsSync(file('deps/lib.js'))).toBe(false);
    expect(fs.readFileSync(file('deps/new.js'), 'utf8')).toBe('new dependency\n');
  });
});
