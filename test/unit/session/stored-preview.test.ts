import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parsePatch } from 'diff';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent, ToolCallDecided } from '../../../src/shared/agent-events';
import { SessionRecord } from '../../../src/main/services/agent-runs/session-record';
import { SessionStore } from '../../../src/main/core/session/session-store';
import { cutUnifiedDiff, MAX_STORED_DIFF_CHARS, storedPreview } from '../../../src/main/core/session/stored-preview';
import { exportTranscriptLines } from '../../../src/main/core/session/transcript-export';
import { unifiedDiff } from '../../../src/worker/tools/diff-preview';

// A write keeps the diff it was decided with: on its decision event, bounded, in the transcript once, given back to
// a resumed session, and redacted in an export like the rest.

let root: string;
let store: SessionStore;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-stored-preview-')));
  store = new SessionStore({ configDir: root });
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const numbered = (n: number, tag: string): string =>
  Array.from({ length: n }, (_, i) => `${tag} line ${i + 1} ${'x'.repeat(60)}`).join('\n') + '\n';

describe('storedPreview', () => {
  it('keeps a small diff as it is', () => {
    const preview = unifiedDiff('src/greet.js', 'hello\n', 'hello world\n');
    expect(storedPreview(preview)).toBe(preview);
  });

  it('cuts a large diff to whole hunks within the bound, counts what it left out, and stays a valid patch', () => {
    // Many separate hunks: every 10th line changes.
    const before = numbered(20_000, 'old');
    const after = before
      .split('\n')
      .map((l, i) => (i % 10 === 0 && l ? l.replace('old', 'new') : l))
      .join('\n');
    const preview = unifiedDiff('big.txt', before, after);
    if (preview.kind !== 'diff') throw new Error('expected a diff');
    const stored = storedPreview(preview);
    if (stored.kind !== 'diff') throw new Error('expected a diff');
    expect(stored.unifiedDiff.length).toBeLessThanOrEqual(MAX_STORED_DIFF_CHARS);
    const [file] = parsePatch(stored.unifiedDiff);
    const keptLines = (file?.hunks ?? []).reduce((n, h) => n + h.lines.length, 0);
    const [whole] = parsePatch(preview.unifiedDiff);
    const allLines = (whole?.hunks ?? []).reduce((n, h) => n + h.lines.length, 0);
    expect(stored.omittedLines).toBe(allLines - keptLines);
    expect(stored.unifiedDiff.startsWith(preview.unifiedDiff.slice(0, 1000))).toBe(true);
  });

  it('a new file of one huge hunk keeps its first lines under a header that matches them', () => {
    const preview = unifiedDiff('new.txt', null, numbered(5_000, 'added'));
    if (preview.kind !== 'diff') throw new Error('expected a diff');
    const cut = cutUnifiedDiff(preview.unifiedDiff, 20_000);
    const [file] = parsePatch(cut.unifiedDiff);
    const hunk = file?.hunks[0];
    expect(hunk?.newLines).toBe(hunk?.lines.length);
    expect(hunk?.lines[0]).toBe(`+added line 1 ${'x'.repeat(60)}`);
    expect(cut.omittedLines + (hunk?.lines.length ?? 0)).toBe(5_000);
  });

  it('one line longer than the bound leaves no hunk, only the count', () => {
    const preview = unifiedDiff('min.js', null, `${'y'.repeat(MAX_STORED_DIFF_CHARS * 2)}\n`);
    const stored = storedPreview(preview);
    expect(stored.kind === 'diff' && stored.omittedLines).toBe(1);
    expect(stored.kind === 'diff' && parsePatch(stored.unifiedDiff)[0]?.hunks).toEqual([]);
  });
});

describe('the stored session keeps the decision preview once', () => {
  const decided = (id: string, preview?: ToolCallDecided['preview']): ToolCallDecided => ({
    type: 'tool_call_decided',
    id,
    allow: true,
    source: 'project',
    reason: 'allowed by rule',
    rule: 'Edit(src/**)',
    ...(preview ? { preview } : {}),
  });

  it('the transcript holds the preview on the decision only, and the command output without its colours', async () => {
    const { header, writer } = await store.create({ projectRoot: root, agentMode: 'do', model: 'm' });
    const record = new SessionRecord(writer, {
      entries: [],
      decisions: [],
      hookRuns: [],
      subagentEvents: [],
      prompts: [],
    });
    const emitted: AgentEvent[] = [];
    const run = {
      runId: 'r1',
      emit: (e: { type: string; event?: AgentEvent }) => void (e.event && emitted.push(e.event)),
      judged: new Map(),
    };
    const preview = unifiedDiff('src/greet.js', 'hi\n', 'hello\n');
    record.record(run, {
      type: 'tool_call_started',
      turn: 1,
      id: 'c1',
      name: 'edit_file',
      input: { path: 'src/greet.js' },
      safety: 'write',
      preview,
    });
    record.record(run, decided('c1', preview));
    record.record(run, {
      type: 'tool_call_finished',
      id: 'c2',
      ran: true,
      isError: false,
      content: 'red\n[exit code 0]',
      exitCode: 0,
      terminal: '\x1b[31mred\x1b[0m',
      durationMs: 5,
    });
    await writer.close();
    // The page watching the run got every event whole.
    expect(emitted.find((e) => e.type === 'tool_call_started')).toMatchObject({ preview });
    expect(emitted.find((e) => e.type === 'tool_call_finished')).toMatchObject({ terminal: '\x1b[31mred\x1b[0m' });
    const raw = fs.readFileSync(writer.file, 'utf8');
    expect(raw.split('hello').length - 1).toBe(1);
    expect(raw).not.toContain('\\u001b[31m');
    const loaded = await store.load(header.id);
    expect(loaded.decisions).toEqual([decided('c1', preview)]);
  });

  it('a transcript written before the decision kept it gives the started event preview to the call', async () => {
    const { header, writer } = await store.create({ projectRoot: root, agentMode: 'do', model: 'm' });
    const preview = unifiedDiff('notes.txt', null, 'new notes\n');
    writer.append({
      type: 'event',
      runId: 'r1',
      event: {
        type: 'tool_call_started',
        turn: 1,
        id: 'c1',
        name: 'write_file',
        input: { path: 'notes.txt' },
        safety: 'write',
        preview,
      },
    });
    writer.append({ type: 'event', runId: 'r1', event: decided('c1') });
    await writer.close();
    expect((await store.load(header.id)).decisions).toEqual([decided('c1', preview)]);
  });

  it('an export drops the diff of a secret-holding file whole and redacts secrets in others', async () => {
    const { writer } = await store.create({ projectRoot: root, agentMode: 'do', model: 'm' });
    const token = `ghp_${'A1b2C3d4E5'.repeat(3)}123456`;
    writer.append({
      type: 'event',
      runId: 'r1',
      event: decided('c1', unifiedDiff('.env', null, 'DB_PASSWORD=hunter2-very-secret\n')),
    });
    writer.append({
      type: 'event',
      runId: 'r1',
      event: decided('c2', unifiedDiff('ci.yml', null, `token: ${token}\n`)),
    });
    await writer.close();
    const out = (await exportTranscriptLines(writer.file)).join('\n');
    expect(out).not.toContain('hunter2-very-secret');
    expect(out).toContain('chars of secret-file content redacted');
    expect(out).not.toContain(token);
    expect(out).toContain('ci.yml');
  });
});
