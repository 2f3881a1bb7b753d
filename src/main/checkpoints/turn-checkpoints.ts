import type { CheckpointDiff, RestoreResult } from '../../shared/checkpoint-contract';
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
    private readonly onProblem: (message: string) => void,
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
      if (entry.error) this.onProblem(`no checkpoint before this prompt: ${entry.error}`);
      return entry;
    } catch (err) {
      this.onProblem(`no checkpoint before this prompt: ${(err as Error).message}`);
      return null;
    }
  }

  list(): Promise<CheckpointEntry[]> {
    return this.store.list();
  }

  diff(id: string): Promise<CheckpointDiff> {
    return this.store.diff(id);
  }

  restore(id: string, options: { overwriteExternal: boolean; sessionId: string }): Promise<RestoreResult> {
    return restoreAudited(this.store, this.configDir, id, options);
  }

  async after(entry: CheckpointEntry | null): Promise<void> {
    if (!entry?.commit) return;
    await this.store.recordAfter(entry.id).catch((err: unknown) => {
      this.onProblem(`the state after the run was not recorded: ${(err as Error).message}`);
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
