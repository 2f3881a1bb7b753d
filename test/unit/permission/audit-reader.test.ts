import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../../../src/main/core/permission/audit-log';
import { readAudit } from '../../../src/main/core/permission/audit-reader';

// The Audit log view's reading of audit.jsonl: the project's decisions, its checkpoint restores and deletions, hook
// runs (another view's) not counted as unreadable, and a broken line counted.

let dir: string;
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-audit-reader-')));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const allow = { decision: 'allow', source: 'mode', rule: null, reason: 'default mode' } as const;

describe('readAudit', () => {
  it('gives decisions and checkpoint lines of the project apart, newest first; hook runs are not unreadable', async () => {
    const log = new AuditLog({ configDir: dir });
    const t = (s: number): Date => new Date(Date.UTC(2026, 11, 2, 10, 0, s));
    log.record({ session: 's1', project: '/p' }, { tool: 'read_file', input: { path: 'a' } }, allow, t(1));
    log.recordHook(
      {
        session: 's1',
        event: 'PostToolUse',
        source: 'user',
        file: '/home/u/settings.yaml',
        command: 'true',
        tool: 'read_file',
        durationMs: 3,
        outcome: 'none',
        message: '',
      },
      t(2),
    );
    log.recordRestore(
      { session: 's1', project: '/p', checkpoint: 'aaaaaaaaaaaa', restored: ['x'], kept: ['y'], undo: 'bbbbbbbbbbbb' },
      t(3),
    );
    log.recordRestore(
      { session: 's9', project: '/other', checkpoint: 'cccccccccccc', restored: [], kept: [], undo: null },
      t(4),
    );
    log.recordCheckpointsDeleted({ project: '/p', deleted: 2 }, t(5));
    await log.flush();
    fs.appendFileSync(path.join(dir, 'audit.jsonl'), 'not json\n{"kind":"checkpoint-restore","broken":true}\n');

    const page = await readAudit({
      file: path.join(dir, 'audit.jsonl'),
      project: '/p',
      sessions: new Set(),
      limit: 10,
    });
    expect(page.entries.map((e) => e.tool)).toEqual(['read_file']);
    expect(page.checkpoints.map((c) => c.kind)).toEqual(['checkpoints-deleted', 'checkpoint-restore']);
    expect(page.checkpoints[1]).toMatchObject({ checkpoint: 'aaaaaaaaaaaa', kept: ['y'], undo: 'bbbbbbbbbbbb' });
    expect(page.skipped).toBe(2);
  });
});

describe('readAudit and the sandbox a command ran in', () => {
  it('keeps the sandbox of an allowed command; older lines without it still read', async () => {
    const log = new AuditLog({ configDir: dir });
    const call = { tool: 'run_command', input: { command: 'rg TODO' } };
    log.record({ session: 's1', project: '/p' }, call, { ...allow, sandbox: 'read-only' });
    log.record({ session: 's1', project: '/p' }, call, { ...allow, source: 'user', rule: 'Bash(rg:*)' });
    await log.flush();
    const lines = fs.readFileSync(path.join(dir, 'audit.jsonl'), 'utf8').trim().split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({ decision: 'allow', sandbox: 'read-only' });
    expect(JSON.parse(lines[1]!)).not.toHaveProperty('sandbox');
    const page = await readAudit({
      file: path.join(dir, 'audit.jsonl'),
      project: '/p',
      sessions: new Set(),
      limit: 10,
    });
    expect(page.skipped).toBe(0);
    expect(page.entries.map((e) => e.sandbox)).toEqual([undefined, 'read-only']);
  });
});
