import type { Decision } from '../../../../shared/permission';
import { decision, type EngineState } from '../stage-types';

/**
 * The cap while a settings file is broken (not valid YAML, wrong shape, a FIFO, a device, too large) and no good
 * version of it was ever seen, in this process or recorded on disk: its deny and ask rules cannot be known, so
 * whatever would be allowed asks a person instead (fail closed; with nobody to answer, it is denied "approval
 * required"). A deny stands. Only this run's own grants let a call through: the CLI flags and the person's
 * approvals in this session (the person chose them knowing the file is broken). Fixing or removing the file lifts it.
 */
export function capUnknownSettings(result: Decision, ctx: Pick<EngineState, 'unknownRules'>): Decision {
  const unknown = ctx.unknownRules ?? [];
  if (unknown.length === 0 || result.decision !== 'allow') return result;
  if (result.source === 'cli' || result.source === 'session' || result.source === 'approval') return result;
  const first = unknown[0]!;
  const more = unknown.length > 1 ? ` (and ${unknown.length - 1} more)` : '';
  return decision(
    'ask',
    first.source,
    `${first.file}${more} cannot be read (${first.reason}) and no earlier good version of it is known: its deny and ask rules are unknown, so nothing is allowed without asking until it is fixed (would otherwise be: ${result.reason})`,
  );
}
