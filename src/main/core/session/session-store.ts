import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AgentRunStatus } from '../../../shared/agent-events';
import type { TokenUsage } from '../../../shared/conversation';
import type { AgentMode } from '../../../shared/permission';
import { GatehouseError } from '../../../shared/errors';
import { deleteSessionCheckpoints } from '../checkpoints/checkpoint-store';
import { isMissing } from '../fs/read-regular-file';
import type { SessionHeader } from './transcript-entry';
import { SESSION_FORMAT_VERSION, SessionIdSchema } from './transcript-entry';
import type { LoadedTranscript } from './transcript-reader';
import { readTranscript } from './transcript-reader';
import { TranscriptWriter } from './transcript-writer';

export interface SessionSummary {
  id: string;
  projectRoot: string;
  agentMode: AgentMode;
  model: string;
  createdAt: string;
  updatedAt: string;
  prompts: number;
  lastPrompt: string | null;
  /** The first prompt: the session's title until the person renames it. */
  firstPrompt: string | null;
  /** How the last run ended (null: no run finished yet). */
  lastStatus: AgentRunStatus | null;
  /** Tokens of every finished run of the session. */
  usage: TokenUsage;
  problems: number;
}

export interface NewSession {
  projectRoot: string;
  agentMode: AgentMode;
  model: string;
}

/** The sessions of `<configDir>/sessions`: one JSONL transcript each. */
export class SessionStore {
  readonly dir: string;

  private readonly configDir: string;

  constructor(options: { configDir: string }) {
    this.configDir = options.configDir;
    this.dir = path.join(options.configDir, 'sessions');
  }

  fileOf(id: string): string {
    const valid = SessionIdSchema.safeParse(id);
    if (!valid.success) throw new GatehouseError('BAD_REQUEST', `"${id.slice(0, 100)}" is not a session id`);
    return path.join(this.dir, `${valid.data}.jsonl`);
  }

  async create(session: NewSession): Promise<{ header: SessionHeader; writer: TranscriptWriter }> {
    await fs.promises.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const header: SessionHeader = {
      type: 'session',
      format: SESSION_FORMAT_VERSION,
      id: randomUUID(),
      createdAt: new Date().toISOString(),
      ...session,
    };
    const writer = await TranscriptWriter.open(this.fileOf(header.id));
    writer.append(header);
    await writer.flush();
    return { header, writer };
  }

  /** Loads a session to resume it; the writer appends to the same file, starting from its conversation. */
  async resume(id: string): Promise<{ header: SessionHeader; transcript: LoadedTranscript; writer: TranscriptWriter }> {
    const transcript = await this.load(id);
    const header = transcript.header;
    if (!header) throw new GatehouseError('BAD_REQUEST', `session ${id} has no readable header line`);
    return { header, transcript, writer: await TranscriptWriter.open(this.fileOf(id), transcript.conversation) };
  }

  async load(id: string): Promise<LoadedTranscript> {
    const file = this.fileOf(id);
    try {
      return await readTranscript(file);
    } catch (err) {
      if (isMissing(err)) throw new GatehouseError('NOT_FOUND', `no session ${id}`);
      throw err;
    }
  }

  /** Newest first. Unreadable files are listed with their problems, never fatal. */
  async list(): Promise<SessionSummary[]> {
    let names: string[];
    try {
      names = (await fs.promises.readdir(this.dir)).filter((n) => n.endsWith('.jsonl'));
    } catch {
      return [];
    }
    const out: SessionSummary[] = [];
    for (const name of names) {
      const id = name.slice(0, -'.jsonl'.length);
      if (!SessionIdSchema.safeParse(id).success) continue;
      try {
        const t = await this.load(id);
        if (!t.header) continue;
        const prompts = t.entries.filter((e) => e.type === 'prompt');
        const updatedAt = (await fs.promises.stat(this.fileOf(id))).mtime.toISOString();
        const { projectRoot, agentMode, model, createdAt } = t.header;
        const lastPrompt = prompts.length ? prompts[prompts.length - 1]!.text : null;
        const results = t.entries.filter((e) => e.type === 'result');
        const lastStatus = results.length ? results[results.length - 1]!.status : null;
        const usage = { inputTokens: 0, outputTokens: 0 };
        for (const r of results) {
          usage.inputTokens += r.usage.inputTokens;
          usage.outputTokens += r.usage.outputTokens;
        }
        out.push({
          id,
          projectRoot,
          agentMode,
          model,
          createdAt,
          updatedAt,
          prompts: prompts.length,
          lastPrompt,
          firstPrompt: prompts[0]?.text ?? null,
          lastStatus,
          usage,
          problems: t.problems.length,
        });
      } catch {
        // A file that vanished or cannot be read is left out of the list.
      }
    }
    return out.sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  }

  async delete(id: string): Promise<boolean> {
    const file = this.fileOf(id);
    try {
      await fs.promises.rm(file);
      // Its checkpoints keep copies of the project's files: they go with it.
      await deleteSessionCheckpoints(this.configDir, id).catch((err: unknown) => {
        process.stderr.write(`gatehouse: the checkpoints of session ${id} were not deleted: ${String(err)}\n`);
      });
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
  }
}
