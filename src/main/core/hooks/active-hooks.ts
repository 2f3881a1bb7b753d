import { HookEventSchema, type HookEvent } from '../../../shared/hooks-contract';
import type { LoadedHook } from '../settings/settings-store';
import { compileMatcher, type CompiledMatcher } from './hook-matcher';

export type { HookEvent };

function isHookEvent(name: string): name is HookEvent {
  return HookEventSchema.safeParse(name).success;
}

/** Claude Code's default: a hook command may run for 60 seconds. */
export const DEFAULT_HOOK_TIMEOUT_S = 60;

/** Sources whose hooks are the project's code: they run only in a trusted project (with hooks enabled) and sandboxed. */
const PROJECT_HOOK_SOURCES: ReadonlySet<LoadedHook['source']> = new Set(['project', 'local']);

/** A hook as Gatehouse sees it: whether it runs, and if not, why. */
export interface HookEntry extends LoadedHook {
  active: boolean;
  /** Why it does not run (untrusted project, unknown event, prompt-type hook, bad matcher); null when active. */
  inactiveReason: string | null;
  /** Project and local hooks run inside the OS sandbox; user and policy hooks as the user. */
  sandboxed: boolean;
}

/** An active hook ready to be matched. */
export interface RunnableHook extends HookEntry {
  event: HookEvent;
  command: string;
  timeoutSeconds: number;
  matches(names: readonly string[]): boolean;
}

export interface HookTrust {
  /** The project is trusted right now. */
  trusted: boolean;
  /** The trust decision enables the project's hooks (trust is specific); true when it says nothing. */
  hooksEnabled: boolean;
}

function inactiveReason(h: LoadedHook, trust: HookTrust, matcher: CompiledMatcher): string | null {
  if (PROJECT_HOOK_SOURCES.has(h.source)) {
    if (!trust.trusted) return 'the project is not trusted: its hooks do not run';
    if (!trust.hooksEnabled) return "the project's trust does not enable its hooks (Trusted folders)";
  }
  if (!isHookEvent(h.event)) return `Gatehouse does not run ${h.event} hooks`;
  if (h.type !== 'command') return `Gatehouse runs only command hooks, not "${h.type}"`;
  if (h.command === null || h.command.trim() === '') return 'the hook has no command';
  if (!matcher.ok) return matcher.reason;
  return null;
}

/** Every configured hook with its status, in the settings' order (policy first). */
export function hookEntries(hooks: readonly LoadedHook[], trust: HookTrust): HookEntry[] {
  return hooks.map((h) => {
    const reason = inactiveReason(h, trust, compileMatcher(h.matcher));
    return { ...h, active: reason === null, inactiveReason: reason, sandboxed: PROJECT_HOOK_SOURCES.has(h.source) };
  });
}

/**
 * The hooks that run for `event` and one of `names` (a tool's Gatehouse and Claude Code names; for SessionStart the
 * start's source; ignored for events without a matcher). The same command configured twice runs once (Claude Code).
 */
export function hooksFor(
  hooks: readonly LoadedHook[],
  trust: HookTrust,
  event: HookEvent,
  names: readonly string[] = [],
): RunnableHook[] {
  const out: RunnableHook[] = [];
  const seen = new Set<string>();
  const usesMatcher = event === 'PreToolUse' || event === 'PostToolUse' || event === 'SessionStart';
  for (const entry of hookEntries(hooks, trust)) {
    if (!entry.active || entry.event !== event || entry.command === null) continue;
    const matcher = compileMatcher(entry.matcher);
    if (!matcher.ok || (usesMatcher && !matcher.test(names))) continue;
    const key = `${entry.sandboxed}\0${entry.command}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      ...entry,
      event,
      command: entry.command,
      timeoutSeconds: entry.timeout ?? DEFAULT_HOOK_TIMEOUT_S,
      matches: matcher.test,
    });
  }
  return out;
}
