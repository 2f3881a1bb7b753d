/** Hooks compatible with Claude Code's: configuration, matching, running, and the PreToolUse step of the engine. */
export {
  DEFAULT_HOOK_TIMEOUT_S,
  hookEntries,
  hooksFor,
  isHookEvent,
  PROJECT_HOOK_SOURCES,
  type HookEntry,
  type HookEvent,
  type HookTrust,
  type RunnableHook,
} from './active-hooks';
export { CLAUDE_TOOL_NAMES, fromClaudeCall, toClaudeCall } from './claude-tools';
export { compileMatcher } from './hook-matcher';
export { readHookResponse, type HookResponse } from './hook-output';
export { HOOK_OUTPUT_CAP, runHookProcess, type HookProcessResult } from './hook-process';
export {
  HookRuntime,
  type HookRun,
  type HookRunRecord,
  type HookRuntimeOptions,
  type SandboxedHookLauncher,
} from './hook-runtime';
export { evaluateWithHooks, preToolUseVerdict, runPreToolUse, type HookedEvaluation } from './pre-tool-use';
export { hookSandbox, projectHookRuntime, type HookSandbox } from './hook-sandbox';
export { SessionHooks, type HookRunsReporter } from './session-hooks';
