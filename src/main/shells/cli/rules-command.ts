import { RuleBehaviorSchema } from '../../../shared/permission';
import { shownLine } from './text-renderer';
import { userConfigDir, homeDir } from '../../core/fs/config-dir';
import { lintRule } from '../../core/permission/rules/lint-rule';
import { UNTRUSTED_ALLOW_EXCLUDED } from '../../core/permission/stages/trust';
import { addRuleToFile, removeRuleFromFile } from '../../core/settings/edit-rules-file';
import { ensureGitExcluded } from '../../core/settings/git-exclude';
import { localSettingsFile, scopeFile } from '../../core/settings/settings-locations';
import { problemLine, settingsProblems } from '../../core/settings/settings-problems';
import { SettingsStore } from '../../core/settings/settings-store';
import type { CliCommand, CliIO, CommandHelp, OptionSpecs } from './command';
import { UsageError } from './command';
import { orList, parseCommandArgs, pick, unknownChoice } from './args';
import { JSON_OUTPUT, PROJECT, SCOPE_HELP, SCOPES } from './cli-options';
import { projectDir, trustOracle } from './project';

type Scope = (typeof SCOPES)[number];

const OPTIONS = {
  project: PROJECT,
  json: { ...JSON_OUTPUT, help: "list: print JSON instead of text (with each rule's file, warnings and problems)" },
  scope: { type: 'string', value: 'SCOPE', choices: SCOPES, help: `add, remove: the file. ${SCOPE_HELP}` },
  behavior: {
    type: 'string',
    value: 'B',
    choices: RuleBehaviorSchema.options,
    help: 'add, remove: what the rule does to a call it matches',
  },
} as const satisfies OptionSpecs;

const HELP: CommandHelp = {
  description:
    "Permission rules in Claude Code's syntax (Bash(npm run lint:*), Read(src/**), Edit(.env), WebFetch(domain:x.org), " +
    'mcp__server__tool) from every settings file Gatehouse reads, with the file each comes from. Deny beats ask beats ' +
    "allow. A project's own allow rules apply only while it is trusted.",
  forms: [
    { usage: 'list [--project DIR] [--json]', does: 'the effective rules, files that failed to load, and problems' },
    {
      usage: 'add --scope SCOPE --behavior B RULE [--project DIR]',
      does: "add RULE to the scope's settings file (local is also added to .git/info/exclude)",
    },
    { usage: 'remove --scope SCOPE --behavior B RULE [--project DIR]', does: 'remove RULE from that file' },
  ],
  options: OPTIONS,
  examples: [
    { command: 'gatehouse rules list', does: 'the rules for the current folder' },
    {
      command: "gatehouse rules add --scope local --behavior allow 'Bash(npm run lint:*)'",
      does: 'allow npm run lint and anything after it, on this machine only',
    },
    {
      command: "gatehouse rules add --scope user --behavior deny 'Read(**/.env)'",
      does: 'never read a .env file, in any project',
    },
  ],
};

async function list(args: string[], io: CliIO): Promise<number> {
  const { values: flags, positionals } = parseCommandArgs(args, pick(OPTIONS, 'project', 'json'));
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const projectRoot = projectDir(flags.project, io.cwd);
  const configDir = userConfigDir(io.env);
  const trusted = await trustOracle(configDir, io.env).isTrusted(projectRoot);
  const store = new SettingsStore({ projectRoot, configDir, home: homeDir(io.env), env: io.env });
  const snapshot = await store.snapshot();
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
  // A settings file that failed to load (or a rule that was skipped) fails the command after the listing, as
  // `skills list` does: the rules it shows are not all the rules its files say, and a CI check should notice.
  const code = result.problems.some((p) => p.kind === 'file') || snapshot.ruleErrors.length > 0 ? 1 : 0;
  if (flags.json) {
    io.out(JSON.stringify(result, null, 2));
    return code;
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
  return code;
}

async function edit(action: 'add' | 'remove', args: string[], io: CliIO): Promise<number> {
  const { values: flags, positionals } = parseCommandArgs(args, pick(OPTIONS, 'project', 'scope', 'behavior'));
  // A missing project folder is named first, before the other arguments are judged.
  const projectRoot =
    flags.project !== undefined || flags.scope !== 'user' ? projectDir(flags.project, io.cwd) : io.cwd;
  const scopeText = flags.scope;
  if (!scopeText) throw new UsageError(`missing --scope (${orList(SCOPES)})`);
  const behavior = RuleBehaviorSchema.safeParse(flags.behavior);
  if (!behavior.success) throw new UsageError(`missing --behavior (${orList(RuleBehaviorSchema.options)})`);
  if (positionals.length !== 1) throw new UsageError('give exactly one RULE (quote it)');
  const rule = positionals[0]!;
  const configDir = userConfigDir(io.env);
  const scope = scopeText as Scope;
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
  help: HELP,
  async run(args, io) {
    const [sub, ...rest] = args;
    if (sub === 'list') return list(rest, io);
    if (sub === 'add' || sub === 'remove') return edit(sub, rest, io);
    throw unknownChoice('subcommand', sub, ['list', 'add', 'remove']);
  },
};
