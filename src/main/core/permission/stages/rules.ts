import type { Decision, RuleBehavior } from '../../../../shared/permission';
import type { CommandFacts, FileFacts } from '../call-facts';
import { assignedName, variableKind } from '../../shell-analysis/walk/environment';
import { withoutGlobalOptions } from '../../shell-analysis/programs/global-options';
import type { SimpleCommand } from '../../shell-analysis/types';
import { codeFolderOf, isSecretPath, mayBeSecret, unknownName } from '../default-paths';
import { bothForms, type JudgedPath } from '../../paths/judged-path';
import type { AllowFilter, CompiledRule } from '../rules/rule-set';
import { decision, PASSTHROUGH, type CallContext, type HookVerdict, type StageAnswer } from '../stage-types';
import { capRuleAllow, UNTRUSTED_ALLOW_EXCLUDED } from './trust';

/**
 * Stage 4: rules from every source. Any matching deny wins, else any ask, else allow (for a command: only when
 * every simple command in it is allowed). An unreadable command is never allowed: without a deny it asks.
 */
export function rulesStage(ctx: CallContext): StageAnswer {
  const loaded = ctx.trusted && ctx.projectRulesEnabled !== false;
  const filter: AllowFilter = { excludeSources: loaded ? new Set() : UNTRUSTED_ALLOW_EXCLUDED };
  return ctx.facts.kind === 'file' ? fileRules(ctx, ctx.facts, filter) : commandRules(ctx, ctx.facts, filter);
}

function ruleDecision(kind: RuleBehavior, rule: CompiledRule, what: string): Decision {
  const verb = kind === 'deny' ? 'denied' : kind === 'ask' ? 'asks' : 'allowed';
  const where = rule.file ? ` in ${rule.file}` : '';
  return decision(kind, rule.source, `${what} ${verb} by the ${rule.source} rule ${rule.text}${where}`, rule.text);
}

/** A PreToolUse hook's allow, judged as an allow rule of the hook's source (the trust cap applies to it). */
function hookAllowed(ctx: CallContext, hook: HookVerdict): Decision {
  return capRuleAllow(ctx, decision('allow', 'hook', hook.reason, hook.hooks), hook.sources);
}

function best(rules: (CompiledRule | null)[]): CompiledRule | null {
  let winner: CompiledRule | null = null;
  for (const r of rules) if (r && (winner === null || r.rank < winner.rank)) winner = r;
  return winner;
}

function fileRules(ctx: CallContext, facts: FileFacts, filter: AllowFilter): StageAnswer {
  const targets = [facts.target, ...facts.extra];
  const forms = targets.flatMap(bothForms);
  const what = `${ctx.tool} ${facts.target.given}`;
  for (const behavior of ['deny', 'ask'] as const) {
    const hit = ctx.rules.matchPath(ctx.tool, behavior, forms);
    if (hit) return ruleDecision(behavior, hit, what);
  }
  // Allow rules judge where the path really lands (a symlink named like an allowed folder does not count); a secret
  // or a file under a code-running folder only by a rule whose pattern matches nothing else.
  const allows = targets.map((t) =>
    ctx.rules.matchPath(ctx.tool, 'allow', [t.real], narrowed(ctx, filter, t, facts.access)),
  );
  if (allows.some((a) => a === null)) {
    if (!ctx.hookAllow) return PASSTHROUGH;
    targets.forEach((t) => ctx.explicitlyAllowed.add(t));
    return hookAllowed(ctx, ctx.hookAllow);
  }
  const rules = allows as CompiledRule[];
  targets.forEach((t) => ctx.explicitlyAllowed.add(t));
  return capRuleAllow(
    ctx,
    ruleDecision('allow', rules[0]!, what),
    rules.map((r) => r.source),
  );
}

/** The filter for allow rules of a path: a secret or a code-folder file needs a rule matching only such files. */
function narrowed(ctx: CallContext, filter: AllowFilter, p: JudgedPath, access: 'read' | 'write'): AllowFilter {
  if (access === 'read') return isSecretPath(p, ctx.confinement.sys) ? { ...filter, only: 'secrets' } : filter;
  return codeFolderOf(ctx.projectRoot, p, ctx.confinement.sys) !== null ? { ...filter, only: 'codeFolders' } : filter;
}

/**
 * A command rule that spells the path out as one of its literal words (`Bash(cat .env)`, `Bash(cp x
 * .git/hooks/pre-commit)`) chose that file; `Bash(cat:*)` or `Bash(*)` did not.
 */
function spellsOut(rule: CompiledRule, given: string): boolean {
  const words = (rule.specifier ?? '').replace(/:\*$/, '').split(/\s+/);
  return words.some((w) => w === given && !w.includes('*'));
}

/**
 * Deny and ask rules match the words as written, the program that really runs, its base name, and the command
 * with its global options removed (`git -C . push` for `Bash(git push:*)`).
 */
function restrictVariants(cmd: SimpleCommand): string[][] {
  const out = [cmd.words, cmd.argv];
  if (cmd.name && cmd.argv[0] !== cmd.name) out.push([cmd.name, ...cmd.argv.slice(1)]);
  const bare = withoutGlobalOptions(cmd);
  if (bare !== null) out.push(bare);
  return out;
}

/**
 * Allow rules match the program that really runs (wrappers such as `timeout 5` set aside), so `Bash(timeout:*)`
 * does not allow whatever `timeout` wraps. Leading assignments outside the inert table (locale, time zone, colour,
 * CI) are part of what a rule must name (`Bash(DEBUG=1 npm test)`); a variable that changes what runs (LD_PRELOAD,
 * PATH, NODE_OPTIONS...) is never allowed by a rule (the command is unreadable), nor a program fed extra arguments
 * from its input (`xargs`).
 */
function allowVariants(cmd: SimpleCommand): string[][] {
  // Arguments read from input at run time (`... | xargs rm`) are not in the text a rule was written for.
  if (cmd.environmentAltered === true || cmd.argsFromInput === true) return [];
  const own = cmd.assignments.filter((a) => variableKind(assignedName(a, true) ?? '') !== 'inert');
  return [own.length === 0 ? cmd.argv : [...own, ...cmd.argv]];
}

/** `tee FILE...`: its targets are judged as writes below, so the part itself needs no rule of its own. */
function isPlainTee(cmd: SimpleCommand): boolean {
  return cmd.name === 'tee' && cmd.argv.slice(1).every((a) => !a.startsWith('-') || a === '-a' || a === '--append');
}

function commandRules(ctx: CallContext, facts: CommandFacts, filter: AllowFilter): StageAnswer {
  const readPaths: JudgedPath[] = [...facts.parts.flatMap((p) => p.readPaths), ...facts.inputReads];
  const writes = facts.writes.filter((w) => !w.free);
  const what = 'this command';
  for (const behavior of ['deny', 'ask'] as const) {
    const hit = best([
      ctx.rules.matchCommand(behavior, []),
      ...facts.parts.map((p) => ctx.rules.matchCommand(behavior, restrictVariants(p.cmd))),
      ...readPaths.map((p) => ctx.rules.matchCommandPath('read', behavior, bothForms(p))),
      ...writes.map((w) => ctx.rules.matchCommandPath('write', behavior, bothForms(w.path))),
    ]);
    if (hit) return ruleDecision(behavior, hit, what);
  }
  // A file read from a place only known at run time may be one a deny or ask rule covers: it asks.
  for (const p of readPaths) {
    if (!p.unknown) continue;
    const rule = best(
      (['deny', 'ask'] as const).map((b) =>
        ctx.rules.matchUnknownPath('read_file', b, unknownName(p.given), { commandFiles: true }),
      ),
    );
    if (rule) {
      const why = `this command reads ${p.given}, whose location is only known when it runs, and the ${rule.source} rule ${rule.text} may cover it`;
      return decision('ask', rule.source, why, rule.text);
    }
  }
  if (!facts.analysis.readable) {
    const why = facts.analysis.unreadableReasons.join('; ') || 'it cannot be parsed';
    return decision(
      'ask',
      'defaults',
      `unreadable command (${why}): Gatehouse cannot know what runs, so it asks in every mode`,
    );
  }
  // Explicit allows for paths override the defaults (sensitive reads, writes outside the project); a secret or a
  // code-folder file only by a rule whose pattern matches nothing else.
  // (Only secrets need it: the defaults judge nothing else a command reads, and a tree read holds many files.)
  for (const p of readPaths)
    if (
      !p.unknown &&
      isSecretPath(p, ctx.confinement.sys) &&
      ctx.rules.matchCommandPath('read', 'allow', [p.real], narrowed(ctx, filter, p, 'read'))
    )
      ctx.explicitlyAllowed.add(p);
  for (const w of writes)
    if (
      !w.path.unknown &&
      ctx.rules.matchCommandPath('write', 'allow', [w.path.real], narrowed(ctx, filter, w.path, 'write'))
    )
      ctx.explicitlyAllowed.add(w.path);

  const matched: CompiledRule[] = [];
  let byHook = false;
  for (const part of facts.parts) {
    const rule = ctx.rules.matchCommand('allow', allowVariants(part.cmd), filter);
    if (rule) matched.push(rule);
    // Every simple command must match an allow rule (contract, "Rules"); `tee FILE` is output redirection.
    // A hook's allow stands for a rule matching the whole command.
    else if (ctx.hookAllow) byHook = true;
    else if (!isPlainTee(part.cmd)) return PASSTHROUGH;
  }
  if (ctx.hookAllow && matched.length === 0) byHook = true;
  if (matched.length === 0 && !byHook) return PASSTHROUGH;
  const spelled = (given: string): boolean => !byHook && matched.some((r) => spellsOut(r, given));
  // A broad command rule (`Bash(cat:*)`, `Bash(*)`) reads no secret, not even one only the run names (`cat $F`):
  // only a Read rule for it or a command rule spelling it out does (the defaults ask otherwise).
  for (const p of readPaths) {
    if (byHook || ctx.explicitlyAllowed.has(p)) continue;
    if (mayBeSecret(p, ctx.confinement.sys) && !spelled(p.given)) return PASSTHROUGH;
  }
  // An allowed command may write into the project (not into its config folders) or where an Edit rule allows.
  for (const w of writes) {
    if (ctx.explicitlyAllowed.has(w.path)) continue;
    if (w.path.unknown || w.path.root === null) return PASSTHROUGH;
    if (codeFolderOf(ctx.projectRoot, w.path, ctx.confinement.sys) !== null && !spelled(w.target.path))
      return PASSTHROUGH;
  }
  if (byHook && ctx.hookAllow) return hookAllowed(ctx, ctx.hookAllow);
  const texts = [...new Set(matched.map((r) => r.text))];
  const first = matched.reduce((a, b) => (b.rank > a.rank ? b : a));
  const allow = decision(
    'allow',
    first.source,
    `every part of this command is allowed (${texts.join(', ')})`,
    texts.join(', '),
  );
  return capRuleAllow(
    ctx,
    allow,
    matched.map((r) => r.source),
  );
}
