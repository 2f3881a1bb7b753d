import fs from 'node:fs';
import path from 'node:path';
import { AgentModeSchema, PermissionModeSchema, type RuleBehavior } from '../../shared/permission';
import { userConfigDir } from '../paths';
import { AuditLog, createPermissionEngine } from '../permission';
import { parseRule } from '../permission/rules/parse-rule';
import type { TrustOracle } from '../permission/trust-oracle';
import { settingsWarnings } from '../settings/settings-problems';
import type { RuleText } from '../settings/settings-store';
import { TrustStore } from '../trust/trust-store';
import type { CliCommand } from './command';
import { UsageError } from './command';

/** Parsed `--flag value` options: repeatable flags collect every value. */
export interface ParsedFlags {
  values: Map<string, string[]>;
  booleans: Set<string>;
  positional: string[];
}

/** Parses `--name value` / `--name=value` flags. `valued` lists the flags that take a value. */
export function parseFlags(args: readonly string[], valued: readonly string[], booleans: readonly string[] = []): ParsedFlags {
  const out: ParsedFlags = { values: new Map(), booleans: new Set(), positional: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) {
      out.positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    if (booleans.includes(name) && eq === -1) {
      out.booleans.add(name);
      continue;
    }
    if (!valued.includes(name)) throw new UsageError(`unknown option --${name}`);
    const value = eq === -1 ? args[++i] : arg.slice(eq + 1);
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    out.values.set(name, [...(out.values.get(name) ?? []), value]);
  }
  return out;
}

export function single(flags: ParsedFlags, name: string): string | undefined {
  const v = flags.values.get(name);
  if (v && v.length > 1) throw new UsageError(`--${name} given more than once`);
  return v?.[0];
}

/** The project folder of `--project` (default: the working directory), as a real path. */
export function projectDir(flags: ParsedFlags, cwd: string): string {
  const dir = path.resolve(cwd, single(flags, 'project') ?? '.');
  try {
    const real = fs.realpathSync.native(dir);
    if (!fs.statSync(real).isDirectory()) throw new Error('not a folder');
    return real;
  } catch {
    throw new UsageError(`project folder not found: ${dir}`);
  }
}

/** The real TrustStore of the trust issue, as the engine sees it. */
export function trustOracle(configDir: string, env: NodeJS.ProcessEnv): TrustOracle {
  const store = new TrustStore({ configDir, env });
  return { isTrusted: (p) => store.check(p).trusted };
}

/** The `--allow/--ask/--deny` flags; a rule that does not parse is a bad argument. */
function cliRules(flags: ParsedFlags): RuleText[] {
  const behaviors: RuleBehavior[] = ['allow', 'ask', 'deny'];
  const rules = behaviors.flatMap((behavior) => (flags.values.get(behavior) ?? []).map((rule) => ({ behavior, rule })));
  for (const r of rules) {
    const parsed = parseRule(r.rule);
    if (!parsed.ok) throw new UsageError(`--${r.behavior} "${r.rule}": ${parsed.reason}`);
  }
  return rules;
}

export const permissionsCommand: CliCommand = {
  name: 'permissions',
  summary: 'check what the permission engine decides for a tool call',
  usage:
    'gatehouse permissions check --call JSON [--project DIR] [--mode strict|default|acceptEdits|bypassPermissions] ' +
    '[--agent-mode chat|plan|do] [--allow RULE]... [--ask RULE]... [--deny RULE]...',
  async run(args, io) {
    const [sub, ...rest] = args;
    if (sub !== 'check') throw new UsageError(sub ? `unknown subcommand "${sub}"` : 'missing subcommand (check)');
    const flags = parseFlags(rest, ['project', 'mode', 'agent-mode', 'allow', 'ask', 'deny', 'call']);
    if (flags.positional.length) throw new UsageError(`unexpected argument "${flags.positional[0]}"`);
    const callText = single(flags, 'call');
    if (callText === undefined) throw new UsageError('missing --call JSON');
    let call: unknown;
    try {
      call = JSON.parse(callText);
    } catch (err) {
      throw new UsageError(`--call is not valid JSON: ${(err as Error).message}`);
    }
    const modeText = single(flags, 'mode');
    const mode = modeText === undefined ? undefined : PermissionModeSchema.safeParse(modeText);
    if (mode && !mode.success) throw new UsageError(`unknown mode "${modeText}" (strict, default, acceptEdits, bypassPermissions)`);
    const agentText = single(flags, 'agent-mode');
    const agentMode = agentText === undefined ? undefined : AgentModeSchema.safeParse(agentText);
    if (agentMode && !agentMode.success) throw new UsageError(`unknown agent mode "${agentText}" (chat, plan, do)`);
    const projectRoot = projectDir(flags, io.cwd);
    const configDir = userConfigDir(io.env);
    const engine = await createPermissionEngine({
      projectRoot,
      configDir,
      env: io.env,
      trust: trustOracle(configDir, io.env),
      cliRules: cliRules(flags),
      mode: mode?.data,
      agentMode: agentMode?.data,
      sessionId: `cli-${process.pid}`,
      // A simulation: recorded apart from the real decisions (audit-simulations.jsonl).
      audit: AuditLog.simulations(configDir),
    });
    for (const line of settingsWarnings(engine.state.snapshot())) io.err(`gatehouse permissions: ${line}`);
    const d = engine.decide(call);
    io.out(JSON.stringify({ decision: d.decision, source: d.source, rule: d.rule, reason: d.reason }));
    return 0;
  },
};
