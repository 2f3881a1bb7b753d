import path from 'node:path';
import { AgentModeSchema, PermissionModeSchema } from '../../shared/permission';
import type { RuleBehavior } from '../../shared/permission';
import type { SessionFlagValues } from '../agent/session-flags';
import { UsageError } from './command';

/** The flags `gatehouse run` and `gatehouse rpc` share, as `parseCommandArgs` options. */
export const SESSION_OPTIONS = {
  project: { type: 'string' },
  mode: { type: 'string' },
  'agent-mode': { type: 'string' },
  model: { type: 'string' },
  allow: { type: 'string', multiple: true },
  ask: { type: 'string', multiple: true },
  deny: { type: 'string', multiple: true },
  'max-turns': { type: 'string' },
  resume: { type: 'string' },
} as const;

export type SessionFlags = Partial<
  Record<'project' | 'mode' | 'agent-mode' | 'model' | 'max-turns' | 'resume', string>
> &
  Partial<Record<RuleBehavior, string[]>>;

export function readSessionFlags(flags: SessionFlags, cwd: string): SessionFlagValues {
  const out: SessionFlagValues = { cliRules: [] };
  if (flags.project !== undefined) out.project = path.resolve(cwd, flags.project);
  if (flags.mode !== undefined) {
    const m = PermissionModeSchema.safeParse(flags.mode);
    if (!m.success) throw new UsageError(`--mode must be one of ${PermissionModeSchema.options.join(', ')}`);
    out.mode = m.data;
  }
  if (flags['agent-mode'] !== undefined) {
    const m = AgentModeSchema.safeParse(flags['agent-mode']);
    if (!m.success) throw new UsageError('--agent-mode must be chat, plan or do');
    out.agentMode = m.data;
  }
  if (flags.model !== undefined) out.model = flags.model;
  const maxTurns = flags['max-turns'];
  if (maxTurns !== undefined) {
    const n = Number(maxTurns);
    if (!Number.isInteger(n) || n < 1 || n > 1000)
      throw new UsageError('--max-turns must be a whole number from 1 to 1000');
    out.maxTurns = n;
  }
  if (flags.resume !== undefined) out.resume = flags.resume;
  const behaviors: RuleBehavior[] = ['allow', 'ask', 'deny'];
  out.cliRules = behaviors.flatMap((behavior) => (flags[behavior] ?? []).map((rule) => ({ behavior, rule })));
  return out;
}
