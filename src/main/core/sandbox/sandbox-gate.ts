/**
 * Without a working OS sandbox nothing bounds what a command does, so no command runs without a person: a
 * run_command the engine (a rule, a mode, bypassPermissions) would allow is turned into an ask. Deny and ask
 * stand as they are. The user turning the sandbox off in their own settings is their explicit choice: no change.
 */
import type { Decision } from '../../../shared/permission';
import type { SandboxStatus } from '../../../shared/worker-protocol';
import { namesOneTool, type RuleSet } from '../permission/rules/rule-set';

export const SANDBOXED_TOOL = 'run_command';

/**
 * What runs the commands, as the worker reported it with the sandbox status. On Windows, where no status says (not
 * checked yet, a worker that could not answer), PowerShell: a command there is never judged as bash unless the worker
 * said Git Bash runs it.
 */
export function commandShellOf(
  status: SandboxStatus | null | undefined,
  platform: NodeJS.Platform = process.platform,
): 'bash' | 'powershell' {
  return status?.shell ?? (platform === 'win32' ? 'powershell' : 'bash');
}

/** True when commands would run unconfined although the user did not turn the sandbox off. */
export function sandboxMissing(status: SandboxStatus): boolean {
  return status.enabled && !status.available;
}

export function unavailableReason(status: SandboxStatus): string {
  return `the OS sandbox is unavailable (${status.reason ?? 'unknown reason'}): every command needs approval`;
}

/** The ask that replaces an allow of `tool` while the sandbox is missing (a run_command); null: an allow stands. */
export function askWithoutSandbox(tool: string, status: SandboxStatus | null): Decision | null {
  if (tool !== SANDBOXED_TOOL || status === null || !sandboxMissing(status)) return null;
  return { decision: 'ask', source: 'hard', rule: null, reason: unavailableReason(status) };
}

/** The Read deny rules in force (source and text): what a run's mask was computed from. */
export function readDenyRules(rules: RuleSet): Set<string> {
  return new Set(
    rules.rules
      .filter((r) => r.behavior === 'deny' && r.tools.includes('read_file') && !namesOneTool(r))
      .map((r) => `${r.source}:${r.text}`),
  );
}

/**
 * The sandbox status for one command of a run: a Read deny rule added since the run's mask was computed (the
 * settings changed mid-prompt) is not hidden by the worker's sandbox yet, so commands ask until the next prompt.
 */
export function statusForCommand(
  status: SandboxStatus | null,
  maskedRules: ReadonlySet<string> | undefined,
  rules: RuleSet,
): SandboxStatus | null {
  if (status === null || maskedRules === undefined || !status.enabled || !status.available) return status;
  const added = [...readDenyRules(rules)].find((r) => !maskedRules.has(r));
  if (added === undefined) return status;
  const rule = added.slice(added.indexOf(':') + 1);
  return {
    ...status,
    available: false,
    reason: `the Read deny rule ${rule} was added during this prompt: the sandbox hides its files from the next prompt`,
  };
}
