import fs from 'node:fs';
import path from 'node:path';
import type { CheckpointAudit } from '../../../shared/audit-contract';
import { parseMcpToolName } from '../../../shared/mcp-contract';
import type { Decision } from '../../../shared/permission';
import { callSecrets, redactKnownSecrets, redactText, summarizeInput } from './redact';

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
  /** The project the call was made in (absent in lines written before it was recorded). */
  project?: string;
  tool: string;
  /** The sub-agent that made the call (its id, as in the run's events); absent: the session's own agent. */
  agent?: string;
  /** For an MCP tool (`mcp__<server>__<tool>`): its server and its tool, by name. */
  mcp?: { server: string; tool: string };
  input: Record<string, unknown>;
  decision: Decision['decision'];
  source: Decision['source'];
  rule: string | null;
  reason: string;
  /** An allowed run_command: the sandbox it ran in (read-only, workspace, off, unavailable, outside). */
  sandbox?: Decision['sandbox'];
}

/** One hook run, as the audit log keeps it (`kind: 'hook'` tells it from a decision line). */
export interface HookAuditEntry {
  time: string;
  session: string;
  kind: 'hook';
  event: string;
  /** The settings source of the hook (policy, user, project, local). */
  source: string;
  file: string;
  command: string;
  tool: string | null;
  durationMs: number;
  /** allow, deny, ask, block, none, or failed. */
  outcome: string;
  message: string;
}

/** A restore of a checkpoint (`kind: 'checkpoint-restore'`): which files went back, which were kept, the undo. */
export type RestoreAuditEntry = Extract<CheckpointAudit, { kind: 'checkpoint-restore' }>;
type DeletedAuditEntry = Extract<CheckpointAudit, { kind: 'checkpoints-deleted' }>;

/**
 * Every decision appended as one JSON line, redacted, rotated by size. Appends are asynchronous and in order (the
 * Electron main process never waits on the disk); `flush()` resolves when every line so far is on disk. A failed
 * append is reported once on stderr and never stops a decision.
 */
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
  private queue: Promise<void> = Promise.resolve();
  private warned = false;

  constructor(options: AuditLogOptions) {
    this.file = path.join(options.configDir, options.fileName ?? 'audit.jsonl');
    this.maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
    this.keep = options.keep ?? 3;
  }

  /** `who`: the session's name, or the session and its project. */
  record(
    who: string | { session: string; project: string },
    call: unknown,
    decision: Decision,
    now = new Date(),
  ): AuditEntry {
    const c = typeof call === 'object' && call !== null ? (call as Record<string, unknown>) : {};
    const tool = typeof c.tool === 'string' ? c.tool : '(malformed call)';
    const mcp = parseMcpToolName(tool);
    // a command's secret arguments (`vault login TOKEN`) may be quoted in the reason or the rule too
    const secrets = callSecrets(tool, c.input);
    const entry: AuditEntry = {
      time: now.toISOString(),
      ...(typeof who === 'string' ? { session: who } : who),
      tool,
      ...(typeof c.agent === 'string' ? { agent: c.agent.slice(0, 100) } : {}),
      ...(mcp ? { mcp } : {}),
      input: summarizeInput(tool, c.input, secrets),
      decision: decision.decision,
      source: decision.source,
      rule: decision.rule === null ? null : redactText(redactKnownSecrets(decision.rule, secrets)),
      reason: redactText(redactKnownSecrets(decision.reason, secrets)),
      ...(decision.sandbox ? { sandbox: decision.sandbox } : {}),
    };
    this.append(JSON.stringify(entry) + '\n');
    return entry;
  }

  /** Appends one hook run (which hook, how long, what it said), redacted like decisions. */
  recordHook(entry: Omit<HookAuditEntry, 'time' | 'kind'>, now: Date = new Date()): HookAuditEntry {
    const line: HookAuditEntry = {
      time: now.toISOString(),
      kind: 'hook',
      ...entry,
      command: redactText(entry.command),
      message: redactText(entry.message),
    };
    this.append(JSON.stringify(line) + '\n');
    return line;
  }

  /** Appends one checkpoint restore. */
  recordRestore(entry: Omit<RestoreAuditEntry, 'time' | 'kind'>, now: Date = new Date()): RestoreAuditEntry {
    const line: RestoreAuditEntry = { time: now.toISOString(), kind: 'checkpoint-restore', ...entry };
    this.append(JSON.stringify(line) + '\n');
    return line;
  }

  /** Appends the deletion of every checkpoint of a project (Settings › Checkpoints). */
  recordCheckpointsDeleted(entry: Omit<DeletedAuditEntry, 'time' | 'kind'>, now: Date = new Date()): DeletedAuditEntry {
    const line: DeletedAuditEntry = { time: now.toISOString(), kind: 'checkpoints-deleted', ...entry };
    this.append(JSON.stringify(line) + '\n');
    return line;
  }

  /** Resolves when every entry recorded so far is written. */
  flush(): Promise<void> {
    return this.queue;
  }

  private append(line: string): void {
    this.queue = this.queue
      .then(() => this.write(line))
      .catch((err: unknown) => {
        if (!this.warned)
          process.stderr.write(
            `gatehouse: could not write the audit log ${this.file}: ${err instanceof Error ? err.message : String(err)}\n`,
          );
        this.warned = true;
      });
  }

  private async write(line: string): Promise<void> {
    await fs.promises.mkdir(path.dirname(this.file), { recursive: true });
    const size = await fs.promises.stat(this.file).then(
      (st) => st.size,
      () => 0,
    );
    if (size > 0 && size + Buffer.byteLength(line) > this.maxBytes) await this.rotate();
    await fs.promises.appendFile(this.file, line, { mode: 0o600 });
  }

  private async rotate(): Promise<void> {
    for (let i = this.keep - 1; i >= 1; i--) {
      const from = `${this.file}.${i}`;
      await fs.promises.rename(from, `${this.file}.${i + 1}`).catch(() => undefined);
    }
    if (this.keep >= 1) await fs.promises.rename(this.file, `${this.file}.1`);
    else await fs.promises.rm(this.file, { force: true });
  }
}
