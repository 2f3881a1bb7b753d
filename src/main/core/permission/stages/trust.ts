import type { Decision } from '../../../../shared/permission';
import { TRUST_EXEMPT_SOURCES, type RuleSourceName } from '../../rule-syntax/rule-types';
import { decision, PASSTHROUGH, type CallContext, type StageAnswer } from '../stage-types';

/** In an untrusted project, project and local allow rules are not loaded (their deny and ask rules are). */
export const UNTRUSTED_ALLOW_EXCLUDED: ReadonlySet<RuleSourceName> = new Set(['project', 'local']);

const NOT_TRUSTED = 'this project is not trusted';

/**
 * Stage 6: in an untrusted project a write or a command asks instead of being allowed by a default or the mode
 * (an untrusted repository's `npm test` runs that repository's code). Reads, read-only commands included, pass.
 */
export function trustStage(ctx: CallContext): StageAnswer {
  if (ctx.trusted || ctx.category === 'read') return PASSTHROUGH;
  return decision(
    'ask',
    'trust',
    `${NOT_TRUSTED}: ${ctx.category === 'write' ? 'writes' : 'commands'} ask until you trust it`,
  );
}

/**
 * The trust cap on rule allows: in an untrusted project only allows from this session, this run's CLI flags or
 * managed policy let a write or a command through; an allow from a user rule asks instead.
 */
export function capRuleAllow(ctx: CallContext, allow: Decision, sources: readonly RuleSourceName[]): Decision {
  if (ctx.trusted || ctx.category === 'read') return allow;
  if (sources.every((s) => TRUST_EXEMPT_SOURCES.has(s))) return allow;
  return decision(
    'ask',
    'trust',
    `${NOT_TRUSTED}: ${allow.rule ?? 'a rule'} would allow this, but only session, CLI or policy rules apply to writes and commands here`,
    allow.rule,
  );
}
