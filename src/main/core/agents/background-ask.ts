import type { Decision } from '../../../shared/permission';
import { BackgroundAskSchema, type BackgroundAsk } from '../../../shared/skills-contract';
import { readUserSettingsYamlAsync, settingsBlock } from '../settings/user-settings-yaml';

/**
 * `subagents.backgroundAsk` from the person's own settings.yaml (a project's settings cannot set it: `continue`
 * loosens). Missing, unreadable or invalid: `deny`, with the problem for a warning.
 */
export async function readBackgroundAsk(configDir: string): Promise<{ value: BackgroundAsk; problem: string | null }> {
  const read = await readUserSettingsYamlAsync(configDir);
  const block = settingsBlock(read.value, 'subagents');
  if (block === undefined || block === null) return { value: 'deny', problem: read.problem };
  const value =
    typeof block === 'object' && !Array.isArray(block) ? (block as Record<string, unknown>).backgroundAsk : block;
  if (value === undefined) return { value: 'deny', problem: null };
  const parsed = BackgroundAskSchema.safeParse(value);
  if (parsed.success) return { value: parsed.data, problem: null };
  return {
    value: 'deny',
    problem: `${read.file}: subagents.backgroundAsk must be deny or continue (got ${JSON.stringify(value)}); deny applies`,
  };
}

/**
 * What an `ask` of a background sub-agent (nobody watches it) becomes. `deny` (the default): denied, "approval
 * required". `continue`: the call runs, but only where nothing but the permission mode asked (`mode`): an ask of a
 * rule, a hook, the defaults (secrets, unreadable commands), trust, a broken settings file, the sandbox (missing, or
 * a command outside it) stays denied, and so does every ask in a project that is not trusted; deny rules and hard checks deny before any ask. Never widens anything else:
 * agent mode and the allowed names are checked again by the worker before the tool runs.
 */
export function unattendedDecision(
  asked: Decision,
  policy: BackgroundAsk,
  facts: { engineAsked: boolean; trusted: boolean },
): Decision {
  if (asked.decision !== 'ask') return asked;
  if (policy === 'continue' && facts.engineAsked && facts.trusted && asked.source === 'mode')
    return {
      decision: 'allow',
      source: 'mode',
      rule: asked.rule,
      reason: `run without a person (a background sub-agent, subagents.backgroundAsk: continue): ${asked.reason}`,
    };
  const why =
    policy === 'continue' ? ' (subagents.backgroundAsk: continue only runs calls the permission mode asks about)' : '';
  return {
    decision: 'deny',
    source: asked.source,
    rule: asked.rule,
    reason: `approval required: nobody watches a background sub-agent${why}: ${asked.reason}`,
  };
}
