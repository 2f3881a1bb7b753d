import fs from 'node:fs';
import type { AuditRecord, CheckpointAudit } from '../../../shared/audit-contract';
import { AuditRecordSchema, CheckpointAuditSchema } from '../../../shared/audit-contract';
import { isMissing } from '../fs/read-regular-file';

export interface AuditQuery {
  /** The log file (`audit.jsonl`); its rotated files (`.1` …) are read too, oldest last. */
  file: string;
  /** Keep lines of this project (and, for lines written before the project was recorded, of these sessions). */
  project: string;
  sessions: ReadonlySet<string>;
  limit: number;
  /** How many rotated files there may be (AuditLog's `keep`). */
  rotated?: number;
}

export interface AuditPage {
  entries: AuditRecord[];
  truncated: boolean;
  skipped: number;
  /** The project's checkpoint restores and deletions, newest first (at most MAX_CHECKPOINT_LINES). */
  checkpoints: CheckpointAudit[];
}

const MAX_CHECKPOINT_LINES = 200;
/** Lines of other kinds the log holds (hook runs: the Hooks view shows them): read, not "unreadable". */
const OTHER_KINDS = new Set(['hook']);

/** Rotated files are read only up to this size each (the log rotates at 5 MiB). */
const MAX_FILE_BYTES = 16 * 1024 * 1024;

/**
 * One project's decisions from the audit log, newest first, read asynchronously (the Electron main thread never
 * waits on the disk). A line that is not an audit line is counted and skipped, never fatal.
 */
export async function readAudit(query: AuditQuery): Promise<AuditPage> {
  const files = [query.file];
  for (let i = 1; i <= (query.rotated ?? 3); i++) files.push(`${query.file}.${i}`);
  const entries: AuditRecord[] = [];
  const checkpoints: CheckpointAudit[] = [];
  let skipped = 0;
  let truncated = false;
  for (const file of files) {
    const text = await readBounded(file);
    if (text === null) continue;
    const lines = text.split('\n');
    for (let i = lines.length - 1; i >= 0; i--) {
      const line = lines[i]!.trim();
      if (!line) continue;
      const record = parseLine(line);
      if (record === null) {
        skipped++;
        continue;
      }
      if (record.type === 'other') continue;
      if (record.type === 'checkpoint') {
        if (record.line.project === query.project && checkpoints.length < MAX_CHECKPOINT_LINES)
          checkpoints.push(record.line);
        continue;
      }
      const decision = record.line;
      const ours =
        decision.project === undefined ? query.sessions.has(decision.session) : decision.project === query.project;
      if (!ours) continue;
      if (entries.length >= query.limit) {
        truncated = true;
        return { entries, truncated, skipped, checkpoints };
      }
      entries.push(decision);
    }
  }
  return { entries, truncated, skipped, checkpoints };
}

type ParsedLine =
  | { type: 'decision'; line: AuditRecord }
  | { type: 'checkpoint'; line: CheckpointAudit }
  | { type: 'other' };

/** One line of the log: a decision, a checkpoint restore or deletion, another kind (hook runs), or null (unreadable). */
function parseLine(text: string): ParsedLine | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const kind = typeof json === 'object' && json !== null && 'kind' in json ? json.kind : undefined;
  if (typeof kind === 'string' && OTHER_KINDS.has(kind)) return { type: 'other' };
  if (kind !== undefined) {
    const parsed = CheckpointAuditSchema.safeParse(json);
    return parsed.success ? { type: 'checkpoint', line: parsed.data } : null;
  }
  const parsed = AuditRecordSchema.safeParse(json);
  return parsed.success ? { type: 'decision', line: parsed.data } : null;
}

async function readBounded(file: string): Promise<string | null> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (err) {
    if (isMissing(err)) return null;
    throw err;
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) return null;
    const size = Math.min(st.size, MAX_FILE_BYTES);
    const buf = Buffer.alloc(size);
    const { bytesRead } = await handle.read(buf, 0, size, st.size - size);
    return buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}
