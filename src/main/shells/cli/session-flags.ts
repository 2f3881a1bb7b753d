import { AgentModeSchema, PermissionModeSchema } from '../../../shared/permission';
import type { RuleBehavior } from '../../../shared/permission';
import type { SessionFlagValues } from '../../services/agent-runs/session-flags';
import { AGENT_MODE, MODE, PROJECT, RULE_OPTIONS } from './cli-options';
import type { OptionSpecs } from './command';
import { UsageError } from './command';
import { projectDir } from './project';

/** The flags `gatehouse run` and `gatehouse rpc` share, as `parseCommandArgs` options (and their help). */
export const SESSION_OPTIONS = {
  project: PROJECT,
  mode: MODE,
  'agent-mode': AGENT_MODE,
  model: {
    type: 'string',
    value: 'NAME',
    help: 'the model (default: ANTHROPIC_MODEL, else model.name in your settings.yaml, else the default)',
  },
  ...RULE_OPTIONS,
  'max-turns': { type: 'string', value: 'N', help: 'stop after N model turns (1 to 1000)' },
  resume: { type: 'string', value: 'ID', help: 'continue a saved session (`gatehouse sessions list`)' },
} as const satisfies OptionSpecs;

export type SessionFlags = Partial<
  Record<'project' | 'mode' | 'agent-mode' | 'model' | 'max-turns' | 'resume', string>
> &
  Partial<Record<RuleBehavior, string[]>>;

export function readSessionFlags(flags: SessionFlags, cwd: string): SessionFlagValues {
  const out: SessionFlagValues = { cliRules: [] };
  // First: a missing project folder is named before the key, the model or anything else is looked at.
  if (flags.project !== undefined) out.project = projectDir(flags.project, cwd);
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
