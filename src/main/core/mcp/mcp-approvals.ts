import { createHash } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import type { McpServerEntry } from '../../../shared/mcp-contract';
import { writeFileAtomicAsync } from '../fs/atomic-write';
import { isMissing, MAX_STATE_BYTES, readRegularFile } from '../fs/read-regular-file';
import { withStateLock } from '../fs/state-lock';

/**
 * A project's MCP servers start only after the person approved each one, once per project (beside trust.json, in the
 * user config directory, which the agent cannot write). An approval holds for the entry as it was shown: a changed
 * command, arguments, URL, headers' names, environment names or domains need a new approval. Revocable.
 */
const ApprovalSchema = z.object({ fingerprint: z.string(), approvedAt: z.string(), shown: z.string() });
const ApprovalsFileSchema = z.object({
  version: z.literal(1),
  projects: z.record(z.string(), z.record(z.string(), ApprovalSchema)),
  /** Servers the person switched off, per project (any source: the person's own too). */
  disabled: z.record(z.string(), z.array(z.string())).optional(),
});
type ApprovalsFile = z.infer<typeof ApprovalsFileSchema>;

/** What an approval is for: everything about how the server runs and what it receives, not secret values. */
function entryFingerprint(entry: McpServerEntry): string {
  const shape =
    entry.type === 'http'
      ? { type: 'http', url: entry.url, headers: Object.keys(entry.headers ?? {}).sort() }
      : {
          type: 'stdio',
          command: entry.command,
          args: entry.args ?? [],
          env: entry.env ?? {},
          envAllowList: [...(entry.envAllowList ?? [])].sort(),
          allowedDomains: [...(entry.allowedDomains ?? [])].sort(),
        };
  return createHash('sha256').update(JSON.stringify(shape)).digest('hex');
}

function approvalsFile(configDir: string): string {
  return path.join(configDir, 'mcp-approvals.json');
}

export class McpApprovals {
  readonly file: string;

  constructor(configDir: string) {
    this.file = approvalsFile(configDir);
  }

  /** The stored approvals; a missing file is none; a broken file is an error (nothing is approved by it). */
  async read(): Promise<ApprovalsFile> {
    let text: string;
    try {
      text = await readRegularFile(this.file, { maxBytes: MAX_STATE_BYTES, what: 'state files' });
    } catch (err) {
      if (isMissing(err)) return { version: 1, projects: {} };
      throw err;
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (err) {
      throw new Error(`${this.file}: not valid JSON (${(err as Error).message})`, { cause: err });
    }
    const parsed = ApprovalsFileSchema.safeParse(json);
    if (!parsed.success) throw new Error(`${this.file}: ${parsed.error.issues[0]?.message ?? 'wrong shape'}`);
    return parsed.data;
  }

  /** Whether `name` in `projectRoot` is approved as `entry` is now. A broken file approves nothing. */
  async isApproved(projectRoot: string, name: string, entry: McpServerEntry): Promise<boolean> {
    const file = await this.read().catch(() => null);
    return file?.projects[projectRoot]?.[name]?.fingerprint === entryFingerprint(entry);
  }

  /** Whether the person switched `name` off in `projectRoot`. A broken file counts as off (fail safe: fewer servers). */
  async isDisabled(projectRoot: string, name: string): Promise<boolean> {
    const file = await this.read().catch(() => null);
    return file === null || (file.disabled?.[projectRoot] ?? []).includes(name);
  }

  /** Switches `name` off (or back on) in `projectRoot`; false when it already was. */
  async setDisabled(projectRoot: string, name: string, disabled: boolean): Promise<boolean> {
    let changed = false;
    await this.update((file) => {
      const list = new Set(file.disabled?.[projectRoot] ?? []);
      changed = list.has(name) !== disabled;
      if (disabled) list.add(name);
      else list.delete(name);
      const all = { ...(file.disabled ?? {}) };
      if (list.size) all[projectRoot] = [...list].sort();
      else delete all[projectRoot];
      file.disabled = all;
    });
    return changed;
  }

  async approve(projectRoot: string, name: string, entry: McpServerEntry, shown: string): Promise<void> {
    await this.update((file) => {
      const project = (file.projects[projectRoot] ??= {});
      project[name] = { fingerprint: entryFingerprint(entry), approvedAt: new Date().toISOString(), shown };
    });
  }

  /** Forgets the approval; false when there was none. */
  async revoke(projectRoot: string, name: string): Promise<boolean> {
    let removed = false;
    await this.update((file) => {
      const project = file.projects[projectRoot];
      if (!project?.[name]) return;
      delete project[name];
      if (Object.keys(project).length === 0) delete file.projects[projectRoot];
      removed = true;
    });
    return removed;
  }

  private update(change: (file: ApprovalsFile) => void): Promise<void> {
    return withStateLock(this.file, async () => {
      const file = await this.read();
      change(file);
      await writeFileAtomicAsync(this.file, `${JSON.stringify(file, null, 2)}\n`);
    });
  }
}
