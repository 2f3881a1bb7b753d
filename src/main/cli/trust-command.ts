import path from 'node:path';
import { TrustDefaultSchema, TrustScopeSchema } from '../../shared/permission';
import type { TrustEntry, TrustStatus } from '../../shared/trust-contract';
import { userConfigDir } from '../paths';
import { describeExtensions } from '../trust/trust-extensions';
import { TrustStore } from '../trust/trust-store';
import { parseCommandArgs, unknownChoice } from './args';
import type { CliCommand, CliIO } from './command';
import { UsageError } from './command';

const USAGE = [
  'gatehouse trust <action> ...',
  '  set DIR --scope directory|parent|never [--without rules|hooks|instructions|mcp]...',
  "                                           record a decision (parent: DIR's parent and everything below it)",
  '  extensions DIR [--enable X]... [--disable X]...',
  "                                           which of the project's rules, hooks, instructions, MCP servers its trust enables",
  '  status DIR [--json]                      trusted or not, the decision that applies, where it is stored',
  '  revoke DIR                               make DIR undecided again (removes the decisions that trust it)',
  '  list [--json]                            every stored decision',
  '  default trust|ask|never                  the global default where nothing is stored (user settings)',
  '  repair                                   replace a corrupt store by its still-valid entries (a copy is kept)',
].join('\n');

function parse(args: string[], withScope: boolean, withJson: boolean) {
  return parseCommandArgs(args, {
    ...(withScope ? { scope: { type: 'string' as const }, without: { type: 'string' as const, multiple: true } } : {}),
    ...(withJson ? { json: { type: 'boolean' as const } } : {}),
  });
}

function onePositional(positionals: string[], what: string): string {
  if (positionals.length !== 1 || !positionals[0])
    throw new UsageError(`expected exactly one ${what}, got ${positionals.length}`);
  return positionals[0];
}

const EXTENSIONS = ['rules', 'hooks', 'instructions', 'mcp'] as const;
const extensions = (on: boolean) => ({ rules: on, hooks: on, instructions: on, mcp: on });
type Extension = (typeof EXTENSIONS)[number];

function extensionNames(list: readonly string[] | undefined, flag: string): Extension[] {
  const names = (list ?? []).flatMap((v) => v.split(',')).map((v) => v.trim());
  for (const n of names)
    if (!(EXTENSIONS as readonly string[]).includes(n)) throw unknownChoice(`${flag} extension`, n, EXTENSIONS);
  return names as Extension[];
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
      const { values, positionals } = parse(rest, true, false);
      const dir = onePositional(positionals, 'folder');
      const scope = TrustScopeSchema.exclude(['session']).safeParse(values.scope);
      if (!scope.success)
        throw new UsageError(
          '--scope must be directory, parent or never (session trust lives in one process: use the app)',
        );
      const without = extensionNames(values.without as string[] | undefined, '--without');
      const extensions = { rules: true, hooks: true, instructions: true, mcp: true };
      for (const n of without) extensions[n] = false;
      const status = await store.set(resolveDir(dir), scope.data, without.length ? extensions : undefined);
      io.out(`${status.path}: ${status.reason}`);
      if (status.trusted && status.extensions) io.out(`  enables: ${describeExtensions(status.extensions)}`);
      return 0;
    }
    case 'extensions': {
      const { values, positionals } = parseCommandArgs(rest, {
        enable: { type: 'string', multiple: true },
        disable: { type: 'string', multiple: true },
      });
      const dir = resolveDir(onePositional(positionals, 'folder'));
      const change: Partial<Record<Extension, boolean>> = {};
      for (const n of extensionNames(values.enable, '--enable')) change[n] = true;
      for (const n of extensionNames(values.disable, '--disable')) change[n] = false;
      const status = Object.keys(change).length ? await store.setExtensions(dir, change) : store.check(dir);
      if (!status.trusted) {
        io.out(`${status.path}: untrusted, so none of its rules, hooks, instruction files or MCP servers are loaded`);
        return 0;
      }
      io.out(`${status.path}: trusted; enables ${describeExtensions(status.extensions ?? extensions(true))}`);
      return 0;
    }
    case 'status': {
      const { values, positionals } = parse(rest, false, true);
      const status = await store.checkAsync(resolveDir(onePositional(positionals, 'folder')));
      if (values.json) io.out(JSON.stringify(status));
      else printStatus(io, status);
      return status.decision === 'error' ? 1 : 0;
    }
    case 'revoke': {
      const { positionals } = parse(rest, false, false);
      const dir = resolveDir(onePositional(positionals, 'folder'));
      const removed = await store.revoke(dir);
      if (removed.length === 0) io.out(`nothing to revoke: no decision trusts ${await store.resolve(dir)}`);
      for (const e of removed) io.out(`revoked: ${entryLine(e)}`);
      const after = await store.checkAsync(dir);
      io.out(`${after.path}: ${after.trusted ? 'trusted' : 'untrusted'} (${after.reason})`);
      return 0;
    }
    case 'list': {
      const { values, positionals } = parse(rest, false, true);
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
      const { positionals } = parse(rest, false, false);
      const value = TrustDefaultSchema.safeParse(onePositional(positionals, 'value (trust, ask or never)'));
      if (!value.success) throw new UsageError('the default must be trust, ask or never');
      await store.setDefault(value.data);
      io.out(`trust.default: ${value.data}`);
      return 0;
    }
    case 'repair': {
      const { positionals } = parse(rest, false, false);
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
  usage: USAGE,
  run,
};
