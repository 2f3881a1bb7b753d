import { hookEntries, type HookEntry } from '../../core/hooks/active-hooks';
import { DEFAULT_HOOK_TIMEOUT_S } from '../../core/hooks/active-hooks';
import { homeDir, userConfigDir } from '../../core/fs/config-dir';
import { settingsWarnings } from '../../core/settings/settings-problems';
import { SettingsStore } from '../../core/settings/settings-store';
import { TrustStore } from '../../core/trust/trust-store';
import { parseCommandArgs, unknownChoice } from './args';
import { JSON_OUTPUT, PROJECT } from './cli-options';
import type { CliCommand, CliIO, CommandHelp, OptionSpecs } from './command';
import { UsageError } from './command';
import { projectDir } from './project';

function entryJson(h: HookEntry): Record<string, unknown> {
  return {
    event: h.event,
    matcher: h.matcher,
    type: h.type,
    command: h.command,
    timeout: h.timeout ?? DEFAULT_HOOK_TIMEOUT_S,
    source: h.source,
    file: h.file,
    format: h.format,
    active: h.active,
    inactiveReason: h.inactiveReason,
    sandboxed: h.sandboxed,
  };
}

function printText(io: CliIO, entries: readonly HookEntry[], projectRoot: string, trusted: boolean): void {
  io.out(`hooks for ${projectRoot} (${trusted ? 'trusted' : 'not trusted'}):`);
  if (entries.length === 0) {
    io.out('  (none configured)');
    return;
  }
  for (const h of entries) {
    const state = h.active ? 'active' : `inactive: ${h.inactiveReason}`;
    const matcher = h.matcher === '' ? '*' : h.matcher;
    const runs = h.sandboxed ? 'in the OS sandbox' : 'as you';
    io.out(`  ${h.event} [${matcher}]  ${h.source} ${h.file}`);
    io.out(`    ${h.command ?? `(${h.type} hook)`}  (timeout ${h.timeout ?? DEFAULT_HOOK_TIMEOUT_S} s, runs ${runs})`);
    io.out(`    ${state}`);
  }
}

const OPTIONS = { project: PROJECT, json: JSON_OUTPUT } as const satisfies OptionSpecs;

const HELP: CommandHelp = {
  description:
    "Claude Code-compatible hooks (the `hooks` key) from every settings file Gatehouse reads: yours, the project's, " +
    "Claude Code's and the policy, with whether each runs (an untrusted project's never do) and whether it runs in " +
    "the OS sandbox. The app's Hooks page adds, edits and deletes them.",
  forms: [{ usage: 'list [--project DIR] [--json]', does: 'every hook, its source and file, and whether it runs' }],
  options: OPTIONS,
  examples: [
    { command: 'gatehouse hooks list', does: 'the hooks for the current folder' },
    { command: 'gatehouse hooks list --project ~/code/app --json', does: 'the same as JSON' },
  ],
};

export const hooksCommand: CliCommand = {
  name: 'hooks',
  help: HELP,
  async run(args, io) {
    const [sub, ...rest] = args;
    if (sub !== 'list') throw unknownChoice('subcommand', sub, ['list']);
    const { values, positionals } = parseCommandArgs(rest, OPTIONS);
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const projectRoot = projectDir(values.project, io.cwd);
    const configDir = userConfigDir(io.env);
    const snapshot = await new SettingsStore({ projectRoot, configDir, home: homeDir(io.env), env: io.env }).snapshot();
    const trust = await new TrustStore({ configDir, env: io.env }).check(projectRoot);
    const entries = hookEntries(snapshot.hooks, {
      trusted: trust.trusted,
      hooksEnabled: trust.extensions?.hooks ?? true,
    });
    for (const line of settingsWarnings(snapshot)) io.err(`gatehouse hooks: ${line}`);
    if (values.json)
      io.out(JSON.stringify({ project: projectRoot, trusted: trust.trusted, hooks: entries.map(entryJson) }));
    else printText(io, entries, projectRoot, trust.trusted);
    return 0;
  },
};
