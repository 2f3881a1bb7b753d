import path from 'node:path';
import type { CallContext } from './stage-types';
import type { SimpleCommand } from '../shell-analysis/types';
import type { JudgedPath } from '../paths/judged-path';
import { isSensitiveFile } from './sensitive-files';

const MAX_LEAD_WORDS = 3;
const MAX_EXACT_WORDS = 6;

/** `p` below the project root in rule form (`src/a.ts`), '' for the root itself, null when it is elsewhere. */
function inProject(ctx: CallContext, p: JudgedPath): string | null {
  if (p.root !== ctx.projectRoot) return null;
  const sys = ctx.confinement.sys;
  const rel = sys.relativeInside(p.real, ctx.projectRoot);
  return rel === null ? null : rel.split(sys.sep).join('/');
}

/** The leading words of a command: its program and subcommands, up to the first flag, assignment or path. */
function leadWords(cmd: SimpleCommand): string[] {
  const lead: string[] = [];
  for (let i = 0; i < cmd.argv.length && lead.length < MAX_LEAD_WORDS; i++) {
    const w = cmd.argv[i]!;
    if (cmd.argvDynamic?.[i] || /[$`*?]/.test(w)) break;
    if (i > 0 && (w.startsWith('-') || w.includes('=') || w.includes('/') || w.includes(' '))) break;
    lead.push(w);
  }
  return lead;
}

/** `Bash(npm run test *)` for `npm run test -- --watch`; an exact rule where the leading words are only the program. */
function suggestCommandRule(cmd: SimpleCommand): string | null {
  if (cmd.argv.length === 0) return null;
  const lead = leadWords(cmd);
  if (lead.length === 0) return null;
  if (lead.length === cmd.argv.length) return `Bash(${lead.join(' ')})`;
  if (lead.length >= 2) return `Bash(${lead.join(' ')} *)`;
  const dynamic = cmd.argv.some((w, i) => cmd.argvDynamic?.[i] || /[$`]/.test(w));
  if (!dynamic && cmd.argv.length <= MAX_EXACT_WORDS && !cmd.argv.some((w) => /[()]/.test(w)))
    return `Bash(${cmd.argv.join(' ')})`;
  return `Bash(${lead[0]} *)`;
}

/** A path pattern covering `p`: its folder (`src/components/**`), or the file itself for secrets and top-level files. */
function pathPattern(ctx: CallContext, p: JudgedPath, exactFile: boolean): string {
  const rel = inProject(ctx, p);
  if (rel === null) {
    // an absolute rule in rule form: `//c/Users/alice/x` for `C:\Users\alice\x` on Windows
    const sys = ctx.confinement.sys;
    return exactFile ? `/${sys.toRuleForm(p.real)}` : `/${sys.toRuleForm(sys.dirname(p.real))}/**`;
  }
  const dir = path.posix.dirname(rel);
  if (exactFile || dir === '.' || rel === '') return `./${rel}`;
  return `${dir}/**`;
}

/**
 * The narrowest useful generalisation of a call, as rules the person can edit before saving: one per part of a
 * compound command (none for an unreadable one), `Edit(folder/**)` for a write, `Read(folder/**)` for a read.
 */
export function suggestRules(ctx: CallContext): string[] {
  const facts = ctx.facts;
  if (facts.kind === 'file') {
    const sys = ctx.confinement.sys;
    const sensitive = isSensitiveFile(facts.target.real, sys);
    const tool = facts.access === 'write' ? 'Edit' : 'Read';
    const isFolder = ctx.tool !== 'read_file' && facts.access === 'read';
    if (isFolder) {
      const rel = inProject(ctx, facts.target);
      const abs = `/${sys.toRuleForm(facts.target.real)}`;
      return [rel === null ? `Read(${abs}/**)` : rel === '' ? 'Read(./**)' : `Read(${rel}/**)`];
    }
    return [`${tool}(${pathPattern(ctx, facts.target, sensitive)})`];
  }
  if (!facts.analysis.readable) return [];
  const rules: string[] = [];
  const parts = facts.parts.filter((p) => !p.readOnly);
  for (const part of parts.length ? parts : facts.parts) {
    const rule = suggestCommandRule(part.cmd);
    if (rule === null) return [];
    rules.push(rule);
  }
  for (const w of facts.writes) {
    if (w.free || w.path.unknown || w.path.root !== null) continue;
    rules.push(`Edit(${pathPattern(ctx, w.path, true)})`);
  }
  return [...new Set(rules)];
}
