import { hardDenyReason, hardDenyWriteReason } from '../../shell-analysis/deny-list/deny-list';
import type { CommandFacts, FileFacts } from '../call-facts';
import type { JudgedPath } from '../../paths/judged-path';
import { decision, PASSTHROUGH, type CallContext, type StageAnswer } from '../stage-types';

/**
 * Stage 3, the hard checks nothing below can override (no rule, no mode, no approval): the built-in deny list
 * and fork bombs on the parsed command, disk devices as redirect targets, path confinement of file tools, and
 * self-protection of Gatehouse's own settings, rules and trust files.
 */
export function hardStage(ctx: CallContext): StageAnswer {
  return ctx.facts.kind === 'file' ? fileChecks(ctx, ctx.facts) : commandChecks(ctx, ctx.facts);
}

function protectedReason(ctx: CallContext, p: JudgedPath): string | null {
  return (
    ctx.protectedPaths.reason(p.real) ??
    ctx.protectedPaths.reason(p.lexical) ??
    (p.physical ? ctx.protectedPaths.reason(p.physical) : null)
  );
}

function fileChecks(ctx: CallContext, facts: FileFacts): StageAnswer {
  for (const p of [facts.target, ...facts.extra]) {
    if (p.unknown) {
      const why = ctx.confinement.sys.ambiguity(p.given) ?? 'symbolic link loop?';
      return decision('deny', 'hard', `cannot tell where "${p.given}" leads (${why})`);
    }
    if (p.root === null) {
      const how = p.real !== p.lexical ? ` (it resolves to ${p.real})` : '';
      return decision('deny', 'hard', `"${p.given}" is outside the project and its additional directories${how}`);
    }
  }
  if (facts.access === 'write') {
    const reason = protectedReason(ctx, facts.target);
    if (reason) return decision('deny', 'hard', reason);
  }
  return PASSTHROUGH;
}

function commandChecks(ctx: CallContext, facts: CommandFacts): StageAnswer {
  const { analysis } = facts;
  if (analysis.forkBomb) return decision('deny', 'hard', `fork bomb: ${analysis.forkBomb}`);
  const where = { projectRoot: ctx.projectRoot, home: ctx.home, fs: ctx.confinement.fs, sys: ctx.confinement.sys };
  for (const part of facts.parts) {
    const reason = hardDenyReason(part.cmd, where);
    if (reason) return decision('deny', 'hard', `built-in deny list: ${reason} (in \`${part.cmd.text}\`)`);
  }
  for (const w of facts.writes) {
    const reason = hardDenyWriteReason(w.target);
    if (reason) return decision('deny', 'hard', `built-in deny list: ${reason}`);
    if (!w.free) {
      const own = protectedReason(ctx, w.path);
      if (own) return decision('deny', 'hard', `${own} (written by ${w.target.via} ${w.target.path})`);
    }
  }
  for (const part of facts.parts) {
    for (const p of part.linkTargets) {
      const own = protectedReason(ctx, p);
      if (own) return decision('deny', 'hard', `${own} (a link to it is made by \`${part.cmd.text}\`)`);
    }
  }
  return PASSTHROUGH;
}
