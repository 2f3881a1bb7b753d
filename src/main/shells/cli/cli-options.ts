import { AgentModeSchema, PermissionModeSchema } from '../../../shared/permission';
import type { OptionSpec } from './command';

// Options several commands share, each with its help line: a command's table (CommandHelp.options) lists them
// beside its own, and its parser takes exactly that table.

export const PROJECT = {
  type: 'string',
  value: 'DIR',
  help: 'the project folder (default: the current folder); a missing folder is named before anything runs',
} as const satisfies OptionSpec;

export const JSON_OUTPUT = { type: 'boolean', help: 'print JSON instead of text' } as const satisfies OptionSpec;

export const MODE = {
  type: 'string',
  value: 'MODE',
  choices: PermissionModeSchema.options,
  help: "the permission mode (default: your settings' permissions.mode, else default)",
} as const satisfies OptionSpec;

export const AGENT_MODE = {
  type: 'string',
  value: 'M',
  choices: AgentModeSchema.options,
  help: 'chat answers and edits, plan only reads and writes a plan, do carries work out',
} as const satisfies OptionSpec;

/** `--allow/--ask/--deny RULE`: rules for this run only, on top of every settings file. */
export const RULE_OPTIONS = {
  allow: { type: 'string', multiple: true, value: 'RULE', help: 'allow what RULE matches, for this run only' },
  ask: { type: 'string', multiple: true, value: 'RULE', help: 'ask before what RULE matches, for this run only' },
  deny: { type: 'string', multiple: true, value: 'RULE', help: 'deny what RULE matches, for this run only' },
} as const satisfies Record<string, OptionSpec>;

/** The three settings files a rule, hook or MCP server can be written to. */
export const SCOPES = ['user', 'project', 'local'] as const;
export const SCOPE_HELP =
  'user: your own settings.yaml; project: .gatehouse/settings.yaml (shared through git); local: .gatehouse/settings.local.yaml (this machine, git-excluded)';
