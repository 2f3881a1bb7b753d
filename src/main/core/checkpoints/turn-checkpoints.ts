import type { CheckpointDiff, RestoreResult } from '../../../shared/checkpoint-contract';
import { GatehouseError } from '../../../shared/errors';
import type { AgentMode } from '../../../shared/permission';
import { TOOLS } from '../../../shared/tools';
import { AuditLog } from '../permission/audit-log';
import type { CheckpointEntry } from './checkpoint-index';
import { CheckpointStore, type NotedState } from './checkpoint-store';

/** The running prompt's checkpoint, and who is changing the files now. */
interface RunWindows {
  entry: CheckpointEntry;
  /** The tool calls running now that may change files (by sub-agent and call id). */
  busy: Set<string>;
  /** The files when the agent last stopped working (null while it works). */
  idle: NotedState | null;
  /** The moments being noted, in order. */
  chain: Promise<void>;
  /** A moment could not be noted: the run's changes all count as someone else's. */
  lost: boolean;
}

/**
 * A session's checkpoints around its prompts: one before each prompt whose run may change files (not plan mode, which
 * only reads), the files noted when each tool call that may change them starts and ends (what changed between two
 * calls, while the model thought or a person was asked, was changed outside the agent), and the state the run left
 * noted when it ends. A checkpoint that fails never stops the prompt: the entry records why (`gatehouse checkpoints
 * list` shows it), and `onProblem` hears it.
 */
export class TurnCheckpoints {
  readonly store: CheckpointStore;
  private run: RunWindows | null = null;

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
      else
        this.run = {
          entry,
          busy: new Set(),
          idle: { tree: entry.commit!, exclude: entry.exclude ?? null },
          chain: Promise.resolve(),
          lost: false,
        };
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

  /**
   * A tool call of the running prompt was allowed and is about to run (`key`: unique in the run, `tool`: its name).
   * When it is the only one, the files are noted first: what changed since the agent last stopped working was not
   * the agent's. Read-only tools change nothing and are not waited for.
   */
  async toolStarting(key: string, tool: string): Promise<void> {
    const run = this.run;
    if (!run || (tool in TOOLS && TOOLS[tool as keyof typeof TOOLS].safety === 'readOnly')) return;
    const first = run.busy.size === 0;
    run.busy.add(key);
    if (first)
      this.note(run, async () => {
        if (run.idle) await this.store.noteMoment(run.entry.id, run.idle);
        run.idle = null;
      });
    // Every call waits for the note that opened the agent's stretch: none of its writes may come before it.
    await run.chain;
  }

  /**
   * A tool call ended, its PostToolUse hooks too (`key` as at its start): when no other runs, the files are noted as
   * the agent left them. The promise settles once they are (the worker waits for it before asking its model again).
   */
  toolFinished(key: string): Promise<void> {
    const run = this.run;
    if (!run?.busy.delete(key) || run.busy.size > 0) return Promise.resolve();
    this.note(run, async () => {
      if (run.busy.size === 0) run.idle = await this.store.noteMoment(run.entry.id, null);
    });
    return run.chain;
  }

  /** `toolFinished` by the model's call id alone (the PostToolUse request does not name a sub-agent). */
  toolEnded(callId: string): Promise<void> {
    const keys = [...(this.run?.busy ?? [])].filter((k) => k.endsWith(`\0${callId}`));
    return keys.length === 1 ? this.toolFinished(keys[0]!) : Promise.resolve();
  }

  private note(run: RunWindows, step: () => Promise<void>): void {
    run.chain = run.chain.then(step).catch((err: unknown) => {
      if (!run.lost) this.session.onProblem(`a moment of the run was not noted: ${(err as Error).message}`);
      run.lost = true;
      run.idle = null;
    });
  }

  async after(entry: CheckpointEntry | null): Promise<void> {
    const run = this.run?.entry === entry ? this.run : null;
    this.run = null;
    if (!entry?.commit) return;
    if (run) await run.chain;
    const options = run ? { since: run.busy.size === 0 ? run.idle : null, unknown: run.lost } : {};
    await this.store.recordAfter(entry.id, options).catch((err: unknown) => {
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
