import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionSummary } from '../../../src/shared/chat-contract';
import { SessionCatalog } from '../../../src/main/services/app/session-catalog';
import { CheckpointStore } from '../../../src/main/core/checkpoints/checkpoint-store';

// Checkpoints keep copies of a project's files: they go when their session is gone for good, and after the retention
// period. Real files, real git.

let root: string;
let configDir: string;
let project: string;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-ckpt-retention-')));
  configDir = path.join(root, 'config');
  project = path.join(root, 'project');
  fs.mkdirSync(configDir);
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, 'a.txt'), 'a\n');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const summary = (id: string): SessionSummary => ({
  id,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  prompts: 1,
  lastPrompt: null,
});

describe('checkpoint retention', () => {
  it('a session emptied from the trash takes its checkpoints with it; a session still in the trash keeps them', async () => {
    const store = new CheckpointStore(configDir, project);
    await store.create({ sessionId: 'old', runId: 'r1', prompt: 'old work' });
    await store.create({ sessionId: 'recent', runId: 'r2', prompt: 'recent work' });
    await store.create({ sessionId: 'open', runId: 'r3', prompt: 'current work' });
    const sessions = path.join(configDir, 'sessions');
    fs.mkdirSync(path.join(sessions, 'trash'), { recursive: true });
    for (const id of ['open']) fs.writeFileSync(path.join(sessions, `${id}.jsonl`), '');
    for (const id of ['old', 'recent']) fs.writeFileSync(path.join(sessions, 'trash', `${id}.jsonl`), '');
    const longAgo = new Date(Date.now() - 30 * 24 * 3600_000);
    fs.utimesSync(path.join(sessions, 'trash', 'old.jsonl'), longAgo, longAgo);

    const catalog = new SessionCatalog({
      configDir,
      list: async () => [summary('open')],
      openSessionId: () => null,
      endSession: async () => undefined,
    });
    expect(await catalog.delete('open')).toBe(true); // a delete empties the old trash

    const left = (await store.list()).map((e) => e.sessionId).sort();
    expect(left).toEqual(['open', 'recent']);
  });

  it('checkpoints older than checkpoints.retentionDays go at the next checkpoint; a broken setting keeps the default', async () => {
    fs.writeFileSync(path.join(configDir, 'settings.yaml'), 'checkpoints:\n  retentionDays: 1\n');
    const store = new CheckpointStore(configDir, project);
    const first = await store.create({ sessionId: 's', runId: 'r1', prompt: 'first' });
    const index = JSON.parse(fs.readFileSync(store.paths.indexFile, 'utf8')) as { entries: { createdAt: string }[] };
    index.entries[0]!.createdAt = new Date(Date.now() - 2 * 24 * 3600_000).toISOString();
    fs.writeFileSync(store.paths.indexFile, JSON.stringify(index));
    await store.create({ sessionId: 's', runId: 'r2', prompt: 'second' });
    expect((await store.list()).map((e) => e.prompt)).toEqual(['second']);
    await expect(store.diff(first.id)).rejects.toThrow(/no checkpoint/);

    fs.writeFileSync(path.join(configDir, 'settings.yaml'), 'checkpoints:\n  retentionDays: "soon"\n');
    const settings = await store.settings();
    expect(settings.retentionDays).toBe(30);
    expect(settings.problem).toContain('checkpoints.retentionDays');
  });

  it('a prune keeps what the remaining checkpoints need: the trees their runs left, their views', async () => {
    const store = new CheckpointStore(configDir, project);
    await store.create({ sessionId: 'gone', runId: 'r0', prompt: 'old' });
    fs.writeFileSync(path.join(project, '.gitignore'), 'tmp/\n');
    const kept = await store.create({ sessionId: 's', runId: 'r1', prompt: 'kept' });
    fs.writeFileSync(path.join(project, 'a.txt'), 'agent\n');
    await store.recordAfter(kept.id);
    // Later checkpoints: the tree the run left is no longer the last one written.
    fs.writeFileSync(path.join(project, 'a.txt'), 'person\n');
    const later = await store.create({ sessionId: 's', runId: 'r2', prompt: 'later' });
    fs.writeFileSync(path.join(project, 'b.txt'), 'b\n');
    await store.recordAfter(later.id);
    expect(await store.deleteSession('gone')).toBe(1); // git gc --prune=now
    const diff = await store.diff(kept.id);
    expect(diff.files.map((f) => `${f.path}${f.external ? ' (outside)' : ''}`).sort()).toEqual([
      'a.txt (outside)',
      'b.txt',
    ]);
    const rules = fs.readdirSync(path.join(store.paths.dir, 'rules'));
    expect(rules).toContain(kept.view);
  });
});
