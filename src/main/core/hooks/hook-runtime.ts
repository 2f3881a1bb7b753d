import type { AuditLog } from '../permission/audit-log';
import type { RunnableHook, HookEvent } from './active-hooks';
import { readHookResponse, type HookResponse } from './hook-output';
import type { WrappedCommand } from '../../../sandbox/types';
import { runHookProcess } from './hook-process';
import { commandShell, shellArgv, type CommandShell } from '../../../shared/node/command-shell';

/**
 * Starts a project (or local) hook inside the OS sandbox, or says why it cannot (then the hook fails: a PreToolUse
 * call asks). Absent: project hooks never run.
 */
export type SandboxedHookLauncher = (command: string) => Promise<WrappedCommand | { unavailable: string }>;

export interface HookRuntimeOptions {
  projectRoot: string;
  /** The environment user and policy hooks run with (the user's own). */
  env: NodeJS.ProcessEnv;
  sessionId: string;
  transcriptPath?: string | null;
  sandboxed?: SandboxedHookLauncher | null;
  audit?: { log: AuditLog; session: string } | null;
  /** What runs a user or policy hook on Windows (Git Bash, else PowerShell); absent: this machine's (command-shell.ts). */
  shell?: () => Promise<CommandShell>;
}

/** One hook run, as the audit log, the tool card and `hooks list` show it. */
export interface HookRunRecord {
  event: HookEvent;
  source: string;
  file: string;
  command: string;
  durationMs: number;
  /** allow, deny, ask, block, none, or failed. */
  outcome: 'allow' | 'deny' | 'ask' | 'block' | 'none' | 'failed';
  /** What it said: its reason, its failure, or its added context. */
  message: string;
}

export interface HookRun {
  hook: RunnableHook;
  response: HookResponse;
  record: HookRunRecord;
}

/** The hooks' input fields common to every event (Claude Code's names). */
function commonInput(options: HookRuntimeOptions, event: HookEvent, permissionMode: string): Record<string, unknown> {
  return {
    session_id: options.sessionId,
    transcript_path: options.transcriptPath ?? '',
    cwd: options.projectRoot,
    permission_mode: permissionMode,
    hook_event_name: event,
  };
}

function envOf(base: NodeJS.ProcessEnv, projectRoot: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined) env[k] = v;
  env.CLAUDE_PROJECT_DIR = projectRoot;
  env.GATEHOUSE_PROJECT_DIR = projectRoot;
  return env;
}

function outcomeOf(r: HookResponse): HookRunRecord['outcome'] {
  if (r.failure !== null) return 'failed';
  return r.decision ?? 'none';
}

/**
 * Runs hooks the way Claude Code does: every matching hook of an event at once, each with the event's JSON on stdin,
 * in the project folder, with its timeout. User and policy hooks run as the user; project and local hooks only
 * through the sandboxed launcher. Each run is appended to the audit log.
 */
export class HookRuntime {
  constructor(readonly options: HookRuntimeOptions) {}

  get projectRoot(): string {
    return this.options.projectRoot;
  }

  async run(
    event: HookEvent,
    hooks: readonly RunnableHook[],
    fields: Record<string, unknown>,
    opts: { permissionMode?: string; tool?: string | null; signal?: AbortSignal } = {},
  ): Promise<HookRun[]> {
    if (hooks.length === 0) return [];
    const input = JSON.stringify({ ...commonInput(this.options, event, opts.permissionMode ?? 'default'), ...fields });
    return Promise.all(hooks.map((hook) => this.runOne(event, hook, input, opts.tool ?? null, opts.signal)));
  }

  private async spawnFor(hook: RunnableHook): Promise<WrappedCommand | { unavailable: string }> {
    if (hook.sandboxed) {
      const launch = this.options.sandboxed;
      if (!launch) return { unavailable: 'project hooks run only inside the OS sandbox, which is not set up here' };
      return launch(hook.command);
    }
    // Linux and macOS: /bin/sh, as Claude Code runs hooks. Windows: Git Bash (Claude Code's too), else PowerShell.
    const shell = await (this.options.shell ?? (() => commandShell()))();
    return {
      ...(shell.windows ? shellArgv(shell, hook.command) : { file: '/bin/sh', args: ['-c', hook.command] }),
      env: envOf(this.options.env, this.options.projectRoot),
      cwd: this.options.projectRoot,
    };
  }

  private async runOne(
    event: HookEvent,
    hook: RunnableHook,
    input: string,
    tool: string | null,
    signal?: AbortSignal,
  ): Promise<HookRun> {
    let spec: WrappedCommand | { unavailable: string };
    try {
      spec = await this.spawnFor(hook);
    } catch (err) {
      spec = { unavailable: err instanceof Error ? err.message : String(err) };
    }
    let response: HookResponse;
    let durationMs = 0;
    if ('unavailable' in spec) {
      response = { decision: null, reason: '', failure: spec.unavailable, context: null, systemMessage: null };
    } else {
      const result = await runHookProcess(spec, input, hook.timeoutSeconds * 1000, signal);
      durationMs = result.durationMs;
      response = readHookResponse(event, result, hook.timeoutSeconds);
    }
    const record: HookRunRecord = {
      event,
      source: hook.source,
      file: hook.file,
      command: hook.command,
      durationMs,
      outcome: outcomeOf(response),
      message: response.failure ?? (response.reason || response.context || ''),
    };
    this.options.audit?.log.recordHook({
      session: this.options.audit.session,
      event,
      source: record.source,
      file: record.file,
      command: record.command,
      tool,
      durationMs: record.durationMs,
      outcome: record.outcome,
      message: record.message,
    });
    return { hook, response, record };
  }
}
