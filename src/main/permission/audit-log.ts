import fs from 'node:fs';
import path from 'node:path';
import type { Decision } from '../../shared/permission';
import { redactText, summarizeInput } from './redact';

export interface AuditLogOptions {
  /** The user config directory; the log is `audit.jsonl` in it (or `fileName`). */
  configDir: string;
  /** `audit-simulations.jsonl` keeps simulated checks apart: they can never rotate real decisions out. */
  fileName?: string;
  /** Rotate when the file would pass this size (bytes). */
  maxBytes?: number;
  /** How many rotated files to keep (`audit.jsonl.1` .. `.N`). */
  keep?: number;
}

export interface AuditEntry {
  time: string;
  session: string;
  tool: string;
  input: Record<string, unknown>;
  decision: Decision['decision'];
  source: Decision['source'];
  rule: string | null;
  reason: string;
}

/** Every decision appended as one JSON line, redacted, rotated by size. */
export class AuditLog {
  /**
   * The log of simulated checks (`gatehouse permissions check`, the rules editor's "Test a call"): apart from the
   * real one, so thousands of simulations never rotate the real decisions out.
   */
  static simulations(configDir: string): AuditLog {
    return new AuditLog({ configDir, fileName: 'audit-simulations.jsonl', maxBytes: 1024 * 1024, keep: 1 });
  }

  readonly file: string;
  private readonly maxBytes: number;
  private readonly keep: number;

  constructor(options: AuditLogOptions) {
    this.file = path.join(options.configDir, options.fileName ?? 'audit.jsonl');
    this.maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
    this.keep = options.keep ?? 3;
  }

  record(session: string, call: unknown, decision: Decision, now: Date = new Date()): AuditEntry {
    const c = typeof call === 'object' && call !== null ? (call as Record<string, unknown>) : {};
    const tool = typeof c.tool === 'string' ? c.tool : '(malformed call)';
    const entry: AuditEntry = {
      time: now.toISOString(),
      session,
      tool,
      input: summarizeInput(tool, c.input),
      decision: decision.decision,
      source: decision.source,
      rule: decision.rule,
      reason: redactText(decision.reason),
    };
    this.append(JSON.stringify(entry) + '\n');
    return entry;
  }

  private append(line: string): void {
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    let size: number;
    try {
      size = fs.statSync(this.file).size;
    } catch {
      size = 0;
    }
    if (size > 0 && size + Buffer.byteLength(line) > this.maxBytes) this.rotate();
    fs.appendFileSync(this.file, line, { mode: 0o600 });
  }

  private rotate(): void {
    for (let i = this.keep - 1; i >= 1; i--) {
      const from = `${this.file}.${i}`;
      if (fs.existsSync(from)) fs.renameSync(from, `${this.file}.${i + 1}`);
    }
    if (this.keep >= 1) fs.renameSync(this.file, `${this.file}.1`);
    else fs.rmSync(this.file, { force: true });
  }
}
