import type { CommandFacts, FileFacts } from '../call-facts';
import { codeFolderOf, isSecretPath } from '../default-paths';
import type { JudgedPath } from '../../paths/judged-path';
import { globTargetsSensitiveFiles } from '../sensitive-files';
import { decision, PASSTHROUGH, type CallContext, type StageAnswer } from '../stage-types';

/**
 * Stage 5, only where no rule decided: reading a sensitive file asks; writing under a folder whose files run code
 * or configure tools (.git/, .vscode/, .idea/, .husky/, .claude/) asks; a command writing outside the project
 * asks. A path an explicit allow rule covers is exempt.
 */
export function defaultsStage(ctx: CallContext): StageAnswer {
  return ctx.facts.kind === 'file' ? fileDefaults(ctx, ctx.facts) : commandDefaults(ctx, ctx.facts);
}

const sensitive = (ctx: CallContext, p: JudgedPath): boolean => isSecretPath(p, ctx.confinement.sys);
const configFolder = (ctx: CallContext, p: JudgedPath): string | null =>
  codeFolderOf(ctx.projectRoot, p, ctx.confinement.sys);

const askSensitive = (p: JudgedPath): StageAnswer =>
  decision(
    'ask',
    'defaults',
    `${p.given} looks like a secret or credentials file: reading it asks unless a rule allows it`,
  );
const askConfig = (p: JudgedPath, folder: string): StageAnswer =>
  decision(
    'ask',
    'defaults',
    `${p.given} is under ${folder}/, whose files run code or configure tools: writing there asks unless a rule allows it`,
  );

function fileDefaults(ctx: CallContext, facts: FileFacts): StageAnswer {
  const glob = ctx.tool === 'search_code' ? ctx.input.glob : undefined;
  if (typeof glob === 'string' && globTargetsSensitiveFiles(glob, ctx.confinement.sys)) {
    return decision(
      'ask',
      'defaults',
      `searching files matching ${glob} reads secret or credentials files: it asks unless a rule allows it`,
    );
  }
  for (const p of [facts.target, ...facts.extra]) {
    if (ctx.explicitlyAllowed.has(p)) continue;
    if (facts.access === 'read' && sensitive(ctx, p)) return askSensitive(p);
    if (facts.access === 'write') {
      const folder = configFolder(ctx, p);
      if (folder) return askConfig(p, folder);
    }
  }
  return PASSTHROUGH;
}

function commandDefaults(ctx: CallContext, facts: CommandFacts): StageAnswer {
  for (const p of [...facts.parts.flatMap((part) => part.readPaths), ...facts.inputReads]) {
    if (!ctx.explicitlyAllowed.has(p) && sensitive(ctx, p)) return askSensitive(p);
  }
  for (const p of [...facts.parts.flatMap((part) => part.readPaths), ...facts.inputReads]) {
    // `cat $FILE`, `cd $DIR && cat x`, `find -exec cat {}`, `... | xargs cat`: which file is read is only known
    // at run time; it may be a secret.
    if (p.unknown && !ctx.explicitlyAllowed.has(p)) {
      return decision(
        'ask',
        'defaults',
        `the command reads ${p.given}, which is only known when it runs (it may be a secret file)`,
      );
    }
  }
  for (const reason of facts.hiddenWrites) {
    return decision('ask', 'defaults', `${reason}: where it writes cannot be known before it runs`);
  }
  for (const w of facts.writes) {
    if (w.free || ctx.explicitlyAllowed.has(w.path)) continue;
    if (w.path.unknown)
      return decision(
        'ask',
        'defaults',
        `the command writes to ${w.target.path}, whose location cannot be known before it runs`,
      );
    if (w.path.root === null)
      return decision('ask', 'defaults', `the command writes outside the project (${w.path.real} via ${w.target.via})`);
    const folder = configFolder(ctx, w.path);
    if (folder) return askConfig(w.path, folder);
  }
  return PASSTHROUGH;
}
