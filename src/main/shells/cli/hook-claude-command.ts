import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { AgentMode, Decision, PermissionMode } from '../../../shared/permission';
import { fromClaudeCall } from '../../core/hooks/claude-tools';
import { userConfigDir } from '../../core/fs/config-dir';
import { createPermissionEngine } from '../../core/permission/create-engine';
import { unknownChoice } from './args';
import type { CliCommand, CliIO, CommandHelp } from './command';
import { UsageError } from './command';
import { trustOracle } from './project';
import { readStdinText } from './stdin-text';

/** Claude Code's PreToolUse input (only what Gatehouse reads; other fields are ignored). */
const ClaudeHookInputSchema = z.looseObject({
  session_id: z.string().optional(),
  cwd: z.string().min(1),
  hook_event_name: z.string(),
  permission_mode: z.string().optional(),
  tool_name: z.string().optional(),
  tool_input: z.unknown().optional(),
});

/** How Gatehouse decides under one of Claude Code's permission modes. */
interface ModeMapping {
  /** Gatehouse's mode (the fallback where nothing earlier decided); absent: the settings' mode. */
  mode?: PermissionMode;
  agentMode?: AgentMode;
  /** Claude Code never asks in this mode: what would ask is denied. */
  neverAsks?: boolean;
  /** Said with a decision the mode made. */
  note?: string;
}

/**
 * Claude Code's `permission_mode` as Gatehouse runs it. The mode is only the last step: hard checks, deny and ask
 * rules, self-protection, unreadable commands and the trust cap come first in every mode, so `bypassPermissions`
 * loosens none of them (and in an untrusted project the trust cap still asks for writes and commands).
 */
function claudeModeMapping(permissionMode: string | undefined): ModeMapping {
  switch (permissionMode) {
    case undefined:
      return {}; // an older Claude Code that does not say: the person's own settings decide
    case 'default':
    case 'acceptEdits':
    case 'bypassPermissions':
      return { mode: permissionMode };
    case 'plan':
      return { agentMode: 'plan' }; // read-only, as in Claude Code's plan mode
    case 'dontAsk':
      return { mode: 'default', neverAsks: true };
    case 'auto':
      // A classifier stands in for the person in Claude Code; Gatehouse's own classifier answers only its own
      // agent's asks, so it decides as by default and leaves what it would ask to Claude Code's.
      return { mode: 'default' };
    default:
      return {
        mode: 'strict',
        note: `Claude Code's permission mode "${permissionMode}" is unknown to Gatehouse, so it asks for every call`,
      };
  }
}

function answer(io: CliIO, kind: Decision['decision'], reason: string): void {
  io.out(
    JSON.stringify({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: kind, permissionDecisionReason: reason },
    }),
  );
}

function realFolder(dir: string): string | null {
  try {
    const real = fs.realpathSync.native(path.resolve(dir));
    return fs.statSync(real).isDirectory() ? real : null;
  } catch {
    return null;
  }
}

function said(d: Decision): string {
  const rule = d.rule && d.source !== 'hook' ? ` (rule ${d.rule})` : '';
  return `Gatehouse (${d.source}${rule}): ${d.reason}`;
}

/**
 * `gatehouse hook claude`: Gatehouse as Claude Code's PreToolUse hook. Reads Claude Code's hook input on stdin,
 * decides the call with Gatehouse's engine for its `cwd` (trust, rules including Claude Code's own files, shell
 * analysis, self-protection, the audit log) and prints Claude Code's `hookSpecificOutput`. A tool Gatehouse does not
 * model, or another event, passes through: no output, exit 0. Input it cannot read asks (fail towards a person).
 * Gatehouse's own hooks never run here (Claude Code runs its hooks itself; this is one of them).
 */
async function hookClaude(io: CliIO, input: string): Promise<number> {
  let json: unknown;
  try {
    json = JSON.parse(input);
  } catch (err) {
    answer(io, 'ask', `Gatehouse could not read the hook input (not JSON: ${(err as Error).message}), so you decide`);
    return 0;
  }
  const parsed = ClaudeHookInputSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    answer(io, 'ask', `Gatehouse could not read the hook input (${issue.path.join('.') || 'input'}: ${issue.message})`);
    return 0;
  }
  const hook = parsed.data;
  if (hook.hook_event_name !== 'PreToolUse') return 0;
  const call = fromClaudeCall(hook.tool_name ?? '', hook.tool_input);
  if (call === null) return 0;
  const projectRoot = realFolder(hook.cwd);
  if (projectRoot === null) {
    answer(io, 'ask', `Gatehouse: the working folder ${hook.cwd} does not exist, so you decide`);
    return 0;
  }
  const configDir = userConfigDir(io.env);
  const mapping = claudeModeMapping(hook.permission_mode);
  const engine = await createPermissionEngine({
    projectRoot,
    configDir,
    env: io.env,
    trust: trustOracle(configDir, io.env),
    ...(mapping.mode ? { mode: mapping.mode } : {}),
    ...(mapping.agentMode ? { agentMode: mapping.agentMode } : {}),
    sessionId: `claude-${hook.session_id ?? io.pid ?? process.pid}`,
  });
  const d = await engine.decide(call);
  await engine.flushAudit();
  const note = mapping.note && d.source === 'mode' ? ` (${mapping.note})` : '';
  if (d.decision === 'ask' && mapping.neverAsks)
    answer(io, 'deny', `${said(d)} (Claude Code's dontAsk mode asks nobody, so it is denied)`);
  else answer(io, d.decision, `${said(d)}${note}`);
  return 0;
}

const HELP: CommandHelp = {
  description:
    "Gatehouse as Claude Code's PreToolUse hook: Claude Code runs it before each tool call with the call as JSON on " +
    "stdin; it decides Bash, Read, Write, Edit, MultiEdit, Glob and Grep calls with Gatehouse's engine for the " +
    "call's folder and prints allow, deny or ask with the reason (hookSpecificOutput). Other tools pass through. " +
    'Add it to ~/.claude/settings.json: "hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", ' +
    '"command": "gatehouse hook claude"}]}]}',
  forms: [{ usage: 'claude', does: "decide the Claude Code call on stdin (Claude Code's hook JSON)" }],
  options: {},
  examples: [
    {
      command:
        'echo \'{"hook_event_name":"PreToolUse","cwd":"/tmp","tool_name":"Bash","tool_input":{"command":"ls"}}\' | gatehouse hook claude',
      does: 'what Gatehouse answers Claude Code for `ls` in /tmp',
    },
    {
      command:
        'echo \'{"hook_event_name":"PreToolUse","cwd":"/tmp","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}\' | gatehouse hook claude',
      does: 'a call the built-in deny list refuses',
    },
  ],
};

export const hookCommand: CliCommand = {
  name: 'hook',
  help: HELP,
  async run(args, io) {
    const [sub, ...rest] = args;
    if (sub !== 'claude') throw unknownChoice('hook', sub, ['claude']);
    if (rest.length) throw new UsageError(`unexpected argument "${rest[0]}"`);
    return hookClaude(io, await (io.stdin ?? readStdinText)());
  },
};

export { hookClaude };
