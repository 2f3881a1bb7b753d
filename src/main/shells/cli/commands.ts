import type { CommandEntry } from './command';

/**
 * Every subcommand of `gatehouse`, in the order `--help` lists them. Add new ones here. Each is imported only when
 * it runs: a one-shot command loads what it needs and nothing else (start-up is measured in `npm run bench`).
 */
export const COMMANDS: CommandEntry[] = [
  {
    name: 'checkpoints',
    summary: 'list the checkpoints taken before prompts, see what restoring one changes, restore one',
    load: async () => (await import('./checkpoints-command')).checkpointsCommand,
  },
  {
    name: 'doctor',
    summary: 'what confines commands: the sandbox (or why none), the doors it keeps shut, the decision helper',
    load: async () => (await import('./doctor-command')).doctorCommand,
  },
  {
    name: 'hook',
    summary: "be Claude Code's PreToolUse hook: decide its call (JSON on stdin) with Gatehouse's engine",
    parsesShell: true,
    load: async () => (await import('./hook-claude-command')).hookCommand,
  },
  {
    name: 'hooks',
    summary: 'list the Claude Code-compatible hooks of every settings source, and which of them run',
    load: async () => (await import('./hooks-command')).hooksCommand,
  },
  {
    name: 'mcp',
    summary: 'list MCP servers and whether they load; approve, revoke, add or remove one',
    load: async () => (await import('./mcp-command')).mcpCommand,
  },
  {
    name: 'open',
    summary: 'open a folder in the desktop app (else in your browser); `gatehouse .` opens this one',
    // Without the desktop app it serves the browser shell until Ctrl-C.
    longLived: true,
    load: async () => (await import('./open-command')).openCommand,
  },
  {
    name: 'permissions',
    summary: 'check what the permission engine decides for a tool call',
    parsesShell: true,
    load: async () => (await import('./permissions-command')).permissionsCommand,
  },
  {
    name: 'rules',
    summary: 'list the effective permission rules, or add/remove one',
    load: async () => (await import('./rules-command')).rulesCommand,
  },
  {
    name: 'run',
    summary: 'run the agent once on a prompt, headless (no TTY: a call that asks is denied)',
    longLived: true,
    load: async () => (await import('./run-command')).runCommand,
  },
  {
    name: 'rpc',
    summary: 'drive a session over stdio: JSON Lines commands in (prompt, approve, cancel), events out',
    longLived: true,
    load: async () => (await import('./rpc-command')).rpcCommand,
  },
  {
    name: 'sessions',
    summary: 'list, export (redacted) or delete saved agent sessions',
    load: async () => (await import('./sessions-command')).sessionsCommand,
  },
  {
    name: 'skills',
    summary: 'list the skills and sub-agents a run is offered, and the files that are not offered and why',
    load: async () => (await import('./skills-command')).skillsCommand,
  },
  {
    name: 'trust',
    summary: 'see and change which project folders are trusted',
    load: async () => (await import('./trust-command')).trustCommand,
  },
  {
    name: 'web',
    summary: 'serve the app in a browser on 127.0.0.1 (prints the URL with its token)',
    longLived: true,
    load: async () => (await import('./web-command')).webCommand,
  },
];

/** `gatehouse .` is `gatehouse open .`, as `code .` opens the folder in the editor. */
export function expandShorthand(argv: string[]): string[] {
  return argv[0] === '.' ? ['open', ...argv] : argv;
}

/** The entry named `name`, if any. */
export function findCommand(name: string): CommandEntry | undefined {
  return COMMANDS.find((c) => c.name === name);
}
