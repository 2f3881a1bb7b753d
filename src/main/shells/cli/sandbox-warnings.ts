import type { SandboxStatus } from '../../../shared/worker-protocol';
import { sandboxMissing, unavailableReason } from '../../core/sandbox/sandbox-gate';

/**
 * The lines a shell shows while a session's commands are not confined (a persistent warning in the app; stderr
 * in the CLI), plus the sandbox settings that were not applied. Empty when the sandbox works and nothing was off.
 */
export function sandboxWarnings(sandbox: { status: SandboxStatus; problems: string[] } | null): string[] {
  if (sandbox === null) return [];
  const lines: string[] = [];
  if (sandboxMissing(sandbox.status)) lines.push(`warning: ${unavailableReason(sandbox.status)}`);
  else if (!sandbox.status.enabled)
    lines.push('warning: the OS sandbox is turned off in your user settings: commands run unconfined');
  for (const p of sandbox.problems) lines.push(`warning: sandbox settings: ${p}`);
  return lines;
}
