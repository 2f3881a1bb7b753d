import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { SessionSummary } from '../../../shared/chat-contract';
import { GatehouseError } from '../../../shared/errors';
import { writeFileAtomicAsync } from '../../core/fs/atomic-write';
import { isMissing, MAX_STATE_BYTES, readRegularFile } from '../../core/fs/read-regular-file';
import { deleteSessionCheckpoints } from '../../core/checkpoints/checkpoint-store';
import { withStateLock } from '../../core/fs/state-lock';
import { SessionStore } from '../../core/session/session-store';

const TitlesSchema = z.object({ titles: z.record(z.string(), z.string()) });
/** Sessions in the trash longer than this are removed for good at the next delete. */
const TRASH_KEEP_MS = 7 * 24 * 3600_000;

export interface SessionCatalogOptions {
  configDir: string;
  /** The open project's sessions, newest first (ChatService.listSessions). */
  list(): Promise<SessionSummary[]>;
  /** The open session's id, and how to end it (deleting the open session ends it first). */
  openSessionId(): string | null;
  endSession(): Promise<void>;
}

/**
 * The sidebar's session list: names the person gave (`sessions/titles.json`), and a trash for deleted sessions
 * (`sessions/trash/`), so a delete can be undone. Only sessions of the open project can be renamed or deleted.
 */
export class SessionCatalog {
  private readonly store: SessionStore;
  private readonly titlesFile: string;
  private readonly trashDir: string;

  constructor(private readonly options: SessionCatalogOptions) {
    this.store = new SessionStore({ configDir: options.configDir });
    this.titlesFile = path.join(this.store.dir, 'titles.json');
    this.trashDir = path.join(this.store.dir, 'trash');
  }

  async list(): Promise<SessionSummary[]> {
    const titles = await this.readTitles();
    return (await this.options.list()).map((s) => ({ ...s, title: titles[s.id] ?? null }));
  }

  async rename(id: string, title: string): Promise<void> {
    await this.requireOwn(id);
    await withStateLock(this.titlesFile, async () => {
      const titles = await this.readTitles();
      if (title) titles[id] = title;
      else delete titles[id];
      await writeFileAtomicAsync(this.titlesFile, JSON.stringify({ titles }, null, 2) + '\n');
    });
  }

  /** Moves the session's transcript to the trash (ending it first when it is the open one). */
  async delete(id: string): Promise<boolean> {
    await this.requireOwn(id);
    if (this.options.openSessionId() === id) await this.options.endSession();
    await fs.promises.mkdir(this.trashDir, { recursive: true, mode: 0o700 });
    await this.emptyOldTrash();
    try {
      await fs.promises.rename(this.store.fileOf(id), this.trashFile(id));
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
  }

  /** Brings a deleted session back (it keeps its name). */
  async restore(id: string): Promise<boolean> {
    const from = this.trashFile(id);
    const to = this.store.fileOf(id);
    try {
      await fs.promises.access(to);
      throw new GatehouseError('BAD_REQUEST', `session ${id} already exists`);
    } catch (err) {
      if (!isMissing(err)) throw err;
    }
    try {
      await fs.promises.rename(from, to);
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
  }

  /** The name the person gave a session (null: none). */
  async titleOf(id: string): Promise<string | null> {
    return (await this.readTitles())[id] ?? null;
  }

  private trashFile(id: string): string {
    return path.join(this.trashDir, path.basename(this.store.fileOf(id)));
  }

  private async requireOwn(id: string): Promise<void> {
    this.store.fileOf(id); // validates the id
    if (!(await this.options.list()).some((s) => s.id === id))
      throw new GatehouseError('NOT_FOUND', `no session ${id} in the open project`);
  }

  private async readTitles(): Promise<Record<string, string>> {
    try {
      const text = await readRegularFile(this.titlesFile, { maxBytes: MAX_STATE_BYTES, what: 'the session names' });
      const parsed = TitlesSchema.safeParse(JSON.parse(text));
      return parsed.success ? parsed.data.titles : {};
    } catch {
      return {}; // names only help the person: a missing or broken file shows first prompts
    }
  }

  private async emptyOldTrash(): Promise<void> {
    const names = await fs.promises.readdir(this.trashDir).catch(() => [] as string[]);
    const now = Date.now();
    for (const name of names) {
      const file = path.join(this.trashDir, name);
      const st = await fs.promises.stat(file).catch(() => null);
      if (st && now - st.mtimeMs > TRASH_KEEP_MS) {
        await fs.promises.rm(file, { force: true });
        // Gone for good: its checkpoints (copies of the project's files) go with it.
        if (name.endsWith('.jsonl'))
          await deleteSessionCheckpoints(this.options.configDir, name.slice(0, -'.jsonl'.length)).catch(() => 0);
      }
    }
  }
}
