import { AgentModeSchema, PermissionModeSchema, type RuleBehavior } from '../../../shared/permission';
import { userConfigDir } from '../../core/fs/config-dir';
import { evaluateWithHooks } from '../../core/hooks/pre-tool-use';
import { projectHookRuntime } from '../../core/hooks/hook-sandbox';
import { AuditLog } from '../../core/permission/audit-log';
import { createPermissionEngine } from '../../core/permission/create-engine';
import { parseRule } from '../../core/rule-syntax/parse-rule';
import { settingsWarnings } from '../../core/settings/settings-problems';
import type { RuleText } from '../../core/settings/settings-store';
import { parseCommandArgs, unknownChoice } from './args';
import { AGENT_MODE, MODE, PROJECT, RULE_OPTIONS } from './cli-options';
import type { CliCommand, CommandHelp, OptionSpecs } from './command';
import { UsageError } from './command';
import { projectDir, trustOracle } from './project';

/** The `--allow/--ask/--deny` flags; a rule that does not parse is a bad argument. */
function cliRules(flags: Partial<Record<RuleBehavior, string[]>>): RuleText[] {
  const behaviors: RuleBehavior[] = ['allow', 'ask', 'deny'];
  const rules = behaviors.flatMap((behavior) => (flags[behavior] ?? []).map((rule) => ({ behavior, rule })));
  for (const r of rules) {
    const parsed = parseRule(r.rule);
    if (!parsed.ok) throw new UsageError(`--${r.behavior} "${r.rule}": ${parsed.reason}`);
  }
  return rules;
}

const OPTIONS = {
  call: {
    type: 'string',
    value: 'JSON',
    help: 'the tool call: {"tool":"run_command","input":{"command":"ls"}} (tools: run_command, read_file, write_file, edit_file, ...)',
  },
  project: PROJECT,
  mode: MODE,
  'agent-mode': AGENT_MODE,
  ...RULE_OPTIONS,
  'no-hooks': { type: 'boolean', help: 'leave the PreToolUse hooks out (they run by default, as for the agent)' },
} as const satisfies OptionSpecs;

const HELP: CommandHelp = {
  description:
    'The permission engine, exactly as the app calls it: prints the decision for one tool call as JSON (decision, ' +
    'source, rule, reason). The check is recorded in audit-simulations.jsonl, apart from the real decisions. Other ' +
    'agents can use it as a hook; a resident helper answers repeated calls quickly (see `gatehouse doctor`).',
  forms: [
    {
      usage:
        'check --call JSON [--project DIR] [--mode MODE] [--agent-mode M] [--allow RULE]... [--ask RULE]... [--deny RULE]... [--no-hooks]',
      does: 'what the engine decides for the call, and why',
    },
  ],
  options: OPTIONS,
  examples: [
    {
      command: 'gatehouse permissions check --call \'{"tool":"run_command","input":{"command":"ls"}}\'',
      does: 'a read-only command: allowed without asking',
    },
    {
      command:
        'gatehouse permissions check --mode acceptEdits --deny \'Edit(src/**)\' --call \'{"tool":"write_file","input":{"path":"src/a.ts","content":"x"}}\'',
      does: 'a write under a deny rule given on the command line',
    },
  ],
};

export const permissionsCommand: CliCommand = {
  name: 'permissions',
  help: HELP,
  async run(args, io) {
    const [sub, ...rest] = args;
    if (sub !== 'check') throw unknownChoice('subcommand', sub, ['check']);
    const { values: flags, positionals } = parseCommandArgs(rest, OPTIONS);
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const projectRoot = projectDir(flags.project, io.cwd);
    const callText = flags.call;
    if (callText === undefined) throw new UsageError('missing --call JSON');
    let call: unknown;
    try {
      call = JSON.parse(callText);
    } catch (err) {
      throw new UsageError(`--call is not valid JSON: ${(err as Error).message}`);
    }
    const modeText = flags.mode;
    const mode = modeText === undefined ? undefined : PermissionModeSchema.safeParse(modeText);
    if (mode && !mode.success) throw unknownChoice('mode', modeText, PermissionModeSchema.options);
    const agentText = flags['agent-mode'];
    const agentMode = agentText === undefined ? undefined : AgentModeSchema.safeParse(agentText);
    if (agentMode && !agentMode.success) throw unknownChoice('agent mode', agentText, AgentModeSchema.options);
    const configDir = userConfigDir(io.env);
    const audit = AuditLog.simulations(configDir);
    const engine = await createPermissionEngine({
      projectRoot,
      configDir,
      env: io.env,
      trust: trustOracle(configDir, io.env),
      cliRules: cliRules(flags),
      mode: mode?.data,
      agentMode: agentMode?.data,
      sessionId: `cli-${io.pid ?? process.pid}`,
      // A simulation: recorded apart from the real decisions (audit-simulations.jsonl).
      audit,
    });
    for (const line of settingsWarnings(await engine.state.snapshot())) io.err(`gatehouse permissions: ${line}`);
    // PreToolUse hooks run as they would for the agent (an untrusted project's never do), unless --no-hooks.
    const session = `cli-${io.pid ?? process.pid}`;
    const hooks = flags['no-hooks']
      ? null
      : projectHookRuntime({ projectRoot, configDir, env: io.env, sessionId: session, audit: { log: audit, session } });
    const { evaluation, runs } = await evaluateWithHooks(engine, hooks?.runtime ?? null, call).finally(() =>
      hooks?.dispose(),
    );
    const d = evaluation.decision;
    engine.record(call, d);
    for (const r of runs)
      io.err(
        `gatehouse permissions: ${r.source} hook "${r.command}" (${r.durationMs} ms): ${r.outcome}${r.message ? `: ${r.message}` : ''}`,
      );
    await engine.flushAudit();
    // In auto mode an ask says whether the classifier may answer it (only the mode's and the defaults' asks).
    const auto = d.decision === 'ask' && (await engine.state.current()).mode === 'auto';
    io.out(
      JSON.stringify({
        decision: d.decision,
        source: d.source,
        rule: d.rule,
        reason: d.reason,
        ...(auto ? { classifiable: d.classifiable === true } : {}),
      }),
    );
    return 0;
  },
};
