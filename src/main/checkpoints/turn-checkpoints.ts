import type { CheckpointDiff, RestoreResult } from '../../shared/checkpoint-contract';
import { GatehouseError } from '../../shared/errors';
import type { AgentMode } from '../../shared/permission';
import { AuditLog } from '../permission/audit-log';
import type { CheckpointEntry } from './checkpoint-index';
import { CheckpointStore } from './checkpoint-store';

/**
 * A session's checkpoints around its prompts: one before each prompt whose run may change files (not plan mode, which
 * only reads), and the state the run left noted when it ends. A checkpoint that fails never stops the prompt: the
 * entry records why (`gatehouse checkpoints list` shows it), and `onProblem` hears it.
 */
export class TurnCheckpoints {
  readonly store: CheckpointStore;

  constructor(
    private readonly configDir: string,
    projectRoot: string,
    private readonly session: {
      onProblem: (message: string) => void;
      sessionId: () => string;
      /** Whether a prompt is running: a restore then waits for nobody and is refused. */
      running: () => boolean;
    },
  ) {
    this.store = new CheckpointStore(configDir, projectRoot);
  }

  async before(info: {
    sessionId: string;
    runId: string;
    prompt: string;
    agentMode: AgentMode;
  }): Promise<CheckpointEntry | null> {
    if (info.agentMode === 'plan') return null;
    try {
      if (!(await this.store.settings()).enabled) return null;
      const entry = await this.store.create(info);
      if (entry.error) this.session.onProblem(`no checkpoint before this prompt: ${entry.error}`);
      return entry;
    } catch (err) {
      this.session.onProblem(`no checkpoint before this prompt: ${(err as Error).message}`);
      return null;
    }
  }

  list(): Promise<CheckpointEntry[]> {
    return this.store.list();
  }

  diff(id: string): Promise<CheckpointDiff> {
    return this.store.diff(id);
  }

  /** Restores checkpoint `id` (never while a prompt runs); files changed outside the agent are kept unless confirmed. */
  restore(id: string, options: { overwriteExternal?: boolean } = {}): Promise<RestoreResult> {
    if (this.session.running())
      return Promise.reject(
        new GatehouseError('BAD_REQUEST', 'a prompt is running in this session: wait for it or cancel it first'),
      );
    return restoreAudited(this.store, this.configDir, id, {
      overwriteExternal: options.overwriteExternal === true,
      sessionId: this.session.sessionId(),
    });
  }

  async after(entry: CheckpointEntry | null): Promise<void> {
    if (!entry?.commit) return;
    await this.store.recordAfter(entry.id).catch((err: unknown) => {
      this.session.onProblem(`the state after the run was not recorded: ${(err as Error).message}`);
    });
  }
}

/**
 * Restores checkpoint `id` and records it in the audit log (the CLI, `gatehouse rpc` and the SDK all restore
 * through here).
 */
export async function restoreAudited(
  store: CheckpointStore,
  configDir: string,
  id: string,
  options: { overwriteExternal: boolean; sessionId: string },
): Promise<RestoreResult> {
  const result = await store.restore(id, options);
  const audit = new AuditLog({ configDir });
  audit.recordRestore({
    session: options.sessionId,
    project: store.projectRoot,
    checkpoint: id,
    restored: result.restored.map((f) => f.path),
    kept: result.kept.map((f) => f.path),
    undo: result.undo?.id ?? null,
  });
  await audit.flush();
  return result;
}
