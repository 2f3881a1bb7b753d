import { GatehouseError } from '../../../shared/errors';
import { isToolName } from '../../../shared/tools';
import type { HookEventRequest, HookEventResult } from '../../../shared/worker-protocol';
import type { PermissionEngine } from '../permission/engine';
import { hooksFor, type HookEvent, type RunnableHook } from './active-hooks';
import { isMcpToolName } from '../../../shared/mcp-contract';
import { CLAUDE_TOOL_NAMES, toClaudeCall } from './claude-tools';
import type { HookRun, HookRunRecord, HookRuntime } from './hook-runtime';

const AGENT_OUTPUT_CAP = 20_000;

function cap(text: string): string {
  return text.length > AGENT_OUTPUT_CAP ? `${text.slice(0, AGENT_OUTPUT_CAP)}… (cut)` : text;
}

/** What several hooks of one event said to the model, one paragraph each, naming the hook. */
function said(runs: readonly HookRun[], pick: (r: HookRun) => string | null): string {
  return cap(
    runs
      .map((r) => ({ r, text: pick(r)?.trim() }))
      .filter((x): x is { r: HookRun; text: string } => !!x.text)
      .map(({ r, text }) => `[${r.hook.source} hook ${r.hook.command}]: ${text}`)
      .join('\n\n'),
  );
}

function tagged(tag: string, text: string): string {
  return `<${tag}>\n${text}\n</${tag}>`;
}

/** Reports the runs of one hook event (the session records them in its transcript and shows them). */
export type HookRunsReporter = (
  event: 'PostToolUse' | 'SessionStart' | 'UserPromptSubmit' | 'Stop',
  runs: HookRunRecord[],
  callId?: string,
) => void;

const blockReason = (r: HookRun): string | null => (r.response.decision === 'block' ? r.response.reason : null);
const contextOf = (r: HookRun): string | null => r.response.context;

/**
 * The hook points of an agent session outside the permission check: SessionStart and UserPromptSubmit (before a
 * prompt runs), PostToolUse and Stop (asked by the worker's loop), Notification (a person is asked). Which hooks
 * run is decided on every event from the settings and trust as they are now (a revoked trust stops them at once).
 */
export class SessionHooks {
  /** SessionStart hooks run before the session's first prompt. */
  private started = false;

  constructor(
    private readonly engine: PermissionEngine,
    readonly runtime: HookRuntime,
    private readonly disposeRuntime: () => Promise<void> = async () => undefined,
  ) {}

  private async active(event: HookEvent, names: readonly string[] = []): Promise<RunnableHook[]> {
    const state = await this.engine.state.current();
    if (!state.hooks?.length) return [];
    return hooksFor(
      state.hooks,
      { trusted: state.trusted, hooksEnabled: state.projectHooksEnabled ?? true },
      event,
      names,
    );
  }

  private async run(
    event: HookEvent,
    fields: Record<string, unknown>,
    names: readonly string[] = [],
    tool: string | null = null,
  ): Promise<HookRun[]> {
    const hooks = await this.active(event, names);
    return this.runtime.run(event, hooks, fields, { tool });
  }

  /** SessionStart (`startup` or `resume`): text the hooks add for the model. */
  async sessionStart(source: 'startup' | 'resume'): Promise<{ context: string; runs: HookRunRecord[] }> {
    const runs = await this.run('SessionStart', { source }, [source]);
    return { context: said(runs, contextOf), runs: runs.map((r) => r.record) };
  }

  /** UserPromptSubmit: a block stops the prompt (the reason is for the person); otherwise added context. */
  async userPromptSubmit(prompt: string): Promise<{ blocked: string | null; context: string; runs: HookRunRecord[] }> {
    const runs = await this.run('UserPromptSubmit', { prompt });
    const blocked = runs.filter((r) => r.response.decision === 'block');
    return {
      blocked: blocked.length ? said(blocked, blockReason) || 'blocked by a UserPromptSubmit hook' : null,
      context: said(runs, contextOf),
      runs: runs.map((r) => r.record),
    };
  }

  /** PostToolUse: what the hooks tell the model about the call it just made ('' for nothing). */
  async postToolUse(
    tool: string,
    input: unknown,
    response: { content: string; isError: boolean },
    callId: string,
  ): Promise<{ feedback: string; runs: HookRunRecord[] }> {
    if (typeof input !== 'object' || input === null) return { feedback: '', runs: [] };
    if (!isToolName(tool)) {
      if (!isMcpToolName(tool)) return { feedback: '', runs: [] };
      // An MCP tool: matched by its own name, its arguments as tool_input.
      const runs = await this.run(
        'PostToolUse',
        {
          tool_name: tool,
          tool_input: input,
          tool_use_id: callId,
          tool_response: { content: response.content, is_error: response.isError, success: !response.isError },
        },
        [tool],
        tool,
      );
      const feedback = said(runs, (r) => [blockReason(r), contextOf(r)].filter(Boolean).join('\n') || null);
      return { feedback, runs: runs.map((r) => r.record) };
    }
    const claude = toClaudeCall(tool, input as Record<string, unknown>, this.runtime.projectRoot);
    const runs = await this.run(
      'PostToolUse',
      {
        ...claude,
        tool_use_id: callId,
        tool_response: { content: response.content, is_error: response.isError, success: !response.isError },
      },
      [tool, CLAUDE_TOOL_NAMES[tool]],
      tool,
    );
    const feedback = said(runs, (r) => [blockReason(r), contextOf(r)].filter(Boolean).join('\n') || null);
    return { feedback, runs: runs.map((r) => r.record) };
  }

  /** Stop: a block keeps the run going with the hooks' reason as the next turn. */
  async stop(stopHookActive: boolean): Promise<{ blocked: boolean; feedback: string; runs: HookRunRecord[] }> {
    const runs = await this.run('Stop', { stop_hook_active: stopHookActive });
    const feedback = said(runs, blockReason);
    return { blocked: feedback !== '', feedback, runs: runs.map((r) => r.record) };
  }

  /**
   * The prompt as the model gets it: SessionStart hooks (first prompt) and UserPromptSubmit hooks may add context;
   * a UserPromptSubmit block stops the prompt with the hook's reason (the model never sees the prompt).
   */
  async promptTask(
    text: string,
    start: 'startup' | 'resume',
    report: HookRunsReporter = () => undefined,
  ): Promise<string> {
    const contexts: string[] = [];
    if (!this.started) {
      this.started = true;
      const started = await this.sessionStart(start);
      if (started.runs.length) report('SessionStart', started.runs);
      if (started.context) contexts.push(tagged('session-start-hook-context', started.context));
    }
    const submitted = await this.userPromptSubmit(text);
    if (submitted.runs.length) report('UserPromptSubmit', submitted.runs);
    if (submitted.blocked !== null)
      throw new GatehouseError(
        'BAD_REQUEST',
        `the prompt was blocked by a UserPromptSubmit hook: ${submitted.blocked}`,
      );
    if (submitted.context) contexts.push(tagged('user-prompt-submit-hook-context', submitted.context));
    return contexts.length ? [text, ...contexts].join('\n\n') : text;
  }

  /** The worker's loop reached a PostToolUse or Stop point of the running prompt. */
  async onLoopEvent(request: HookEventRequest, report: HookRunsReporter = () => undefined): Promise<HookEventResult> {
    if (request.event === 'Stop') {
      const { blocked, feedback, runs } = await this.stop(request.stopHookActive);
      if (runs.length) report('Stop', runs);
      return { blocked, feedback };
    }
    const { feedback, runs } = await this.postToolUse(request.tool, request.input, request.response, request.callId);
    if (runs.length) report('PostToolUse', runs, request.callId);
    return { blocked: false, feedback };
  }

  /** Notification: fire and forget (a failing hook never disturbs the run; the audit log has it). */
  notify(message: string): void {
    void this.run('Notification', { message, title: 'Gatehouse' }).catch(() => undefined);
  }

  dispose(): Promise<void> {
    return this.disposeRuntime();
  }
}
