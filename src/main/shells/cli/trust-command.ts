import path from 'node:path';
import { TrustDefaultSchema, TrustScopeSchema } from '../../../shared/permission';
import type { TrustEntry, TrustStatus } from '../../../shared/trust-contract';
import { userConfigDir } from '../../core/fs/config-dir';
import { describeExtensions } from '../../core/trust/trust-extensions';
import { TrustStore } from '../../core/trust/trust-store';
import { parseCommandArgs, pick, unknownChoice } from './args';
import { JSON_OUTPUT } from './cli-options';
import type { CliCommand, CliIO, CommandHelp, OptionSpecs } from './command';
import { UsageError } from './command';

const EXTENSIONS = ['rules', 'hooks', 'instructions', 'mcp'] as const;
const extensions = (on: boolean) => ({ rules: on, hooks: on, instructions: on, mcp: on });
type Extension = (typeof EXTENSIONS)[number];
const STORED_SCOPES = TrustScopeSchema.options.filter((s) => s !== 'session');

const OPTIONS = {
  scope: {
    type: 'string',
    value: 'SCOPE',
    choices: STORED_SCOPES,
    help: "set: directory trusts DIR, parent trusts DIR's parent and everything below it, never refuses DIR",
  },
  without: {
    type: 'string',
    multiple: true,
    value: 'X',
    choices: EXTENSIONS,
    commaList: true,
    help: 'set: trust, but leave these of the project off',
  },
  enable: {
    type: 'string',
    multiple: true,
    value: 'X',
    choices: EXTENSIONS,
    commaList: true,
    help: "extensions: switch these of a trusted project's extensions on",
  },
  disable: {
    type: 'string',
    multiple: true,
    value: 'X',
    choices: EXTENSIONS,
    commaList: true,
    help: "extensions: switch these of a trusted project's extensions off",
  },
  json: { ...JSON_OUTPUT, help: 'status, list: print JSON instead of text' },
} as const satisfies OptionSpecs;

const HELP: CommandHelp = {
  description:
    "A project's own settings can allow commands, run hooks, add instructions and start MCP servers, so none of " +
    'them load until you trust the folder. Decisions are stored in trust.json in your config folder; with none ' +
    'stored, trust.default (ask) applies. The app asks the same question in its trust dialog.',
  forms: [
    {
      usage: 'set DIR --scope directory|parent|never [--without X]...',
      does: "record a decision (parent: DIR's parent and everything below it)",
    },
    {
      usage: 'extensions DIR [--enable X]... [--disable X]...',
      does: "which of the project's rules, hooks, instructions and MCP servers its trust enables",
    },
    { usage: 'status DIR [--json]', does: 'trusted or not, the decision that applies, where it is stored' },
    { usage: 'revoke DIR', does: 'make DIR undecided again (removes the decisions that trust it)' },
    { usage: 'list [--json]', does: 'every stored decision' },
    { usage: 'default trust|ask|never', does: 'the global default where nothing is stored (your user settings)' },
    { usage: 'repair', does: 'replace a corrupt store by its still-valid entries (a copy is kept)' },
  ],
  options: OPTIONS,
  examples: [
    { command: 'gatehouse trust set . --scope directory', does: 'trust the current folder' },
    {
      command: 'gatehouse trust set ~/code/app --scope directory --without hooks,mcp',
      does: 'trust it, but run none of its hooks and start none of its MCP servers',
    },
    { command: 'gatehouse trust status . --json', does: 'whether the current folder is trusted, and why' },
  ],
};

function onePositional(positionals: string[], what: string): string {
  if (positionals.length !== 1 || !positionals[0])
    throw new UsageError(`expected exactly one ${what}, got ${positionals.length}`);
  return positionals[0];
}

/** The names of a `--without/--enable/--disable` list (the parser checked each against EXTENSIONS). */
function extensionNames(list: readonly string[] | undefined): Extension[] {
  return (list ?? []).flatMap((v) => v.split(',')).map((v) => v.trim()) as Extension[];
}

function printStatus(io: CliIO, s: TrustStatus): void {
  io.out(`${s.path}: ${s.trusted ? 'trusted' : 'untrusted'}`);
  if (s.trusted && s.extensions) io.out(`  enables: ${describeExtensions(s.extensions)}`);
  io.out(`  decision: ${s.decision}${s.scope ? ` (scope ${s.scope})` : ''}`);
  io.out(`  stored at: ${s.storedAt ?? '-'}${s.decision === 'session' ? ' (this process only)' : ''}`);
  io.out(`  store file: ${s.storeFile}`);
  io.out(`  default: ${s.default}`);
  io.out(`  ${s.reason}`);
  if (s.settingsError) io.err(`warning: ${s.settingsError}`);
}

function entryLine(e: TrustEntry): string {
  const from = e.grantedFrom && e.grantedFrom !== e.path ? ` (from ${e.grantedFrom})` : '';
  return `${e.scope.padEnd(9)} ${e.path}${from}  granted ${e.grantedAt}  last opened ${e.lastOpened ?? '-'}`;
}

async function run(args: string[], io: CliIO): Promise<number> {
  const [action, ...rest] = args;
  const store = new TrustStore({ configDir: userConfigDir(io.env), env: io.env });
  const resolveDir = (dir: string) => path.resolve(io.cwd, dir);
  switch (action) {
    case 'set': {
      const { values, positionals } = parseCommandArgs(rest, pick(OPTIONS, 'scope', 'without'));
      const dir = onePositional(positionals, 'folder');
      const scope = TrustScopeSchema.exclude(['session']).safeParse(values.scope);
      if (!scope.success)
        throw new UsageError(
          '--scope must be directory, parent or never (session trust lives in one process: use the app)',
        );
      const without = extensionNames(values.without);
      const extensions = { rules: true, hooks: true, instructions: true, mcp: true };
      for (const n of without) extensions[n] = false;
      const status = await store.set(resolveDir(dir), scope.data, without.length ? extensions : undefined);
      io.out(`${status.path}: ${status.reason}`);
      if (status.trusted && status.extensions) io.out(`  enables: ${describeExtensions(status.extensions)}`);
      return 0;
    }
    case 'extensions': {
      const { values, positionals } = parseCommandArgs(rest, pick(OPTIONS, 'enable', 'disable'));
      const dir = resolveDir(onePositional(positionals, 'folder'));
      const change: Partial<Record<Extension, boolean>> = {};
      for (const n of extensionNames(values.enable)) change[n] = true;
      for (const n of extensionNames(values.disable)) change[n] = false;
      const status = Object.keys(change).length ? await store.setExtensions(dir, change) : await store.check(dir);
      if (!status.trusted) {
        io.out(`${status.path}: untrusted, so none of its rules, hooks, instruction files or MCP servers are loaded`);
        return 0;
      }
      io.out(`${status.path}: trusted; enables ${describeExtensions(status.extensions ?? extensions(true))}`);
      return 0;
    }
    case 'status': {
      const { values, positionals } = parseCommandArgs(rest, pick(OPTIONS, 'json'));
      const status = await store.check(resolveDir(onePositional(positionals, 'folder')));
      if (values.json) io.out(JSON.stringify(status));
      else printStatus(io, status);
      return status.decision === 'error' ? 1 : 0;
    }
    case 'revoke': {
      const { positionals } = parseCommandArgs(rest, {});
      const dir = resolveDir(onePositional(positionals, 'folder'));
      const removed = await store.revoke(dir);
      if (removed.length === 0) io.out(`nothing to revoke: no decision trusts ${await store.resolve(dir)}`);
      for (const e of removed) io.out(`revoked: ${entryLine(e)}`);
      const after = await store.check(dir);
      io.out(`${after.path}: ${after.trusted ? 'trusted' : 'untrusted'} (${after.reason})`);
      return 0;
    }
    case 'list': {
      const { values, positionals } = parseCommandArgs(rest, pick(OPTIONS, 'json'));
      if (positionals.length) throw new UsageError('list takes no folder');
      const entries = await store.list();
      const error = await store.lastError();
      if (values.json)
        io.out(JSON.stringify({ storeFile: store.storeFile, default: await store.trustDefault(), error, entries }));
      else {
        if (entries.length === 0 && !error) io.out(`no stored decisions (${store.storeFile})`);
        for (const e of entries) io.out(entryLine(e));
      }
      if (error)
        io.err(
          `error: the trust store ${error.path} is corrupt: ${error.reason}${error.copy ? ` (copy kept at ${error.copy})` : ''}`,
        );
      return error ? 1 : 0;
    }
    case 'default': {
      const { positionals } = parseCommandArgs(rest, {});
      const word = onePositional(positionals, 'value (trust, ask or never)');
      const value = TrustDefaultSchema.safeParse(word);
      if (!value.success) throw unknownChoice('default', word, TrustDefaultSchema.options);
      await store.setDefault(value.data);
      io.out(`trust.default: ${value.data}`);
      return 0;
    }
    case 'repair': {
      const { positionals } = parseCommandArgs(rest, {});
      if (positionals.length) throw new UsageError('repair takes no arguments');
      const result = await store.repair();
      if (!result.copy) io.out(`the trust store is fine (${result.kept} decisions)`);
      else
        io.out(
          `repaired: kept ${result.kept} decisions, dropped ${result.dropped}; the bad file is kept at ${result.copy}`,
        );
      return 0;
    }
    default:
      throw unknownChoice('action', action, ['set', 'extensions', 'status', 'revoke', 'list', 'default', 'repair']);
  }
}

export const trustCommand: CliCommand = {
  name: 'trust',
  help: HELP,
  run,
};
