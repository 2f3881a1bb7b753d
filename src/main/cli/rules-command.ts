import { RuleBehaviorSchema } from '../../shared/permission';
import { shownLine } from './text-renderer';
import { userConfigDir, homeDir } from '../paths';
import { lintRule } from '../permission/rules/lint-rule';
import { UNTRUSTED_ALLOW_EXCLUDED } from '../permission/stages/trust';
import { addRuleToFile, removeRuleFromFile } from '../settings/edit-rules-file';
import { ensureGitExcluded } from '../settings/git-exclude';
import { localSettingsFile, scopeFile } from '../settings/settings-locations';
import { problemLine, settingsProblems } from '../settings/settings-problems';
import { SettingsStore } from '../settings/settings-store';
import type { CliCommand, CliIO } from './command';
import { UsageError } from './command';
import { parseCommandArgs, unknownChoice } from './args';
import { projectDir, trustOracle } from './project';

const SCOPES = ['user', 'project', 'local'] as const;
type Scope = (typeof SCOPES)[number];

async function list(args: string[], io: CliIO): Promise<number> {
  const { values: flags, positionals } = parseCommandArgs(args, {
    project: { type: 'string' },
    json: { type: 'boolean' },
  });
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const projectRoot = projectDir(flags.project, io.cwd);
  const configDir = userConfigDir(io.env);
  const trusted = trustOracle(configDir, io.env).isTrusted(projectRoot);
  const store = new SettingsStore({ projectRoot, configDir, home: homeDir(io.env), env: io.env });
  const snapshot = store.snapshot();
  await store.flush(); // the last good versions it recorded are written before the command ends
  const rules = snapshot.rules.map((r) => ({
    rule: r.text,
    behavior: r.behavior,
    source: r.source,
    file: r.file,
    // Rules for tools Gatehouse does not have yet are kept and shown; they match nothing for now.
    appliesTo: r.tools,
    /** An unknown tool, or a hard check that always overrides it (see lint-rule.ts). */
    warnings: lintRule(r.text, r.behavior).warnings,
    active: r.tools.length > 0 && (trusted || r.behavior !== 'allow' || !UNTRUSTED_ALLOW_EXCLUDED.has(r.source)),
  }));
  const result = {
    project: projectRoot,
    trusted,
    mode: snapshot.mode,
    rules,
    ruleErrors: snapshot.ruleErrors,
    fileErrors: snapshot.fileErrors,
    /** Every file problem and unknown key, with line, suggestion and what it means for the rules. */
    problems: settingsProblems(snapshot),
    additionalDirectories: snapshot.additionalDirectories,
  };
  if (flags.json) {
    io.out(JSON.stringify(result, null, 2));
    return 0;
  }
  // Rules, files and reasons come from files anyone may have written: hidden characters show as markers.
  const s = (text: string): string => shownLine(text);
  io.out(
    `Project ${s(projectRoot)} (${trusted ? 'trusted' : 'not trusted: project and local allow rules are not loaded'})`,
  );
  if (rules.length === 0) io.out('No rules.');
  for (const r of rules) {
    const note =
      r.appliesTo.length === 0 ? '  (no such tool yet)' : r.active ? '' : '  (inactive: project not trusted)';
    io.out(`  ${r.behavior.padEnd(5)} ${s(r.rule)}  [${r.source}${r.file ? `: ${s(r.file)}` : ''}]${note}`);
    for (const w of r.warnings) io.out(`        warning: ${s(w)}`);
  }
  for (const p of result.problems) io.out(`${p.kind === 'file' ? 'error' : 'warning'}: ${s(problemLine(p))}`);
  for (const e of snapshot.ruleErrors)
    io.out(`error: ${s(e.file ?? e.source)}: ${e.behavior} rule "${s(e.rule)}" skipped: ${s(e.reason)}`);
  return 0;
}

async function edit(action: 'add' | 'remove', args: string[], io: CliIO): Promise<number> {
  const { values: flags, positionals } = parseCommandArgs(args, {
    project: { type: 'string' },
    scope: { type: 'string' },
    behavior: { type: 'string' },
  });
  const scopeText = flags.scope;
  if (!scopeText || !(SCOPES as readonly string[]).includes(scopeText))
    throw new UsageError('--scope must be user, project or local');
  const behavior = RuleBehaviorSchema.safeParse(flags.behavior);
  if (!behavior.success) throw new UsageError('--behavior must be allow, ask or deny');
  if (positionals.length !== 1) throw new UsageError('give exactly one RULE (quote it)');
  const rule = positionals[0]!;
  const configDir = userConfigDir(io.env);
  const scope = scopeText as Scope;
  const projectRoot = scope === 'user' ? io.cwd : projectDir(flags.project, io.cwd);
  const file = scopeFile(scope, projectRoot, configDir);
  if (action === 'add') {
    // Said before writing: the rule is still added (it may be meant for later), but not silently.
    for (const w of lintRule(rule, behavior.data).warnings) io.err(`warning: ${shownLine(w)}`);
    let added: boolean;
    try {
      added = await addRuleToFile(file, behavior.data, rule);
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    if (scope === 'local') await ensureGitExcluded(projectRoot, localSettingsFile(projectRoot));
    io.out(added ? `added ${behavior.data} ${rule} to ${file}` : `${behavior.data} ${rule} is already in ${file}`);
    return 0;
  }
  const removed = await removeRuleFromFile(file, behavior.data, rule);
  io.out(removed ? `removed ${behavior.data} ${rule} from ${file}` : `${behavior.data} ${rule} is not in ${file}`);
  return removed ? 0 : 1;
}

export const rulesCommand: CliCommand = {
  name: 'rules',
  usage:
    'gatehouse rules list [--project DIR] [--json]\n' +
    '       gatehouse rules add|remove --scope user|project|local --behavior allow|ask|deny RULE [--project DIR]',
  async run(args, io) {
    const [sub, ...rest] = args;
    if (sub === 'list') return list(rest, io);
    if (sub === 'add' || sub === 'remove') return edit(sub, rest, io);
    throw unknownChoice('subcommand', sub, ['list', 'add', 'remove']);
  },
};
