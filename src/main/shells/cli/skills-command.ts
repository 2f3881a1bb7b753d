import { discoverAgents } from '../../core/agents/agents';
import { readBackgroundAsk } from '../../core/agents/background-ask';
import { userConfigDir } from '../../core/fs/config-dir';
import { discoverSkills } from '../../core/skills/skills';
import { TrustStore } from '../../core/trust/trust-store';
import { parseCommandArgs, unknownChoice } from './args';
import { JSON_OUTPUT, PROJECT } from './cli-options';
import type { CliCommand, CommandHelp, OptionSpecs } from './command';
import { UsageError } from './command';
import { projectDir } from './project';

/**
 * `gatehouse skills list`: the skills and sub-agents a run in this project is offered (the person's own, and the
 * project's only while it is trusted with its instructions), the files that are not offered and why, and what a
 * background sub-agent's asks become.
 */
const OPTIONS = { project: PROJECT, json: JSON_OUTPUT } as const satisfies OptionSpecs;

const HELP: CommandHelp = {
  description:
    "Skills (SKILL.md folders) and sub-agents in Claude Code's formats, from your config folder and, while the " +
    'project is trusted with its instructions, from its .gatehouse/ and .claude/ folders. Exits 1 when a ' +
    "definition is not offered because of an error (a CI check of a project's skills).",
  forms: [
    { usage: 'list [--project DIR] [--json]', does: 'what a run is offered, and the files that are not and why' },
  ],
  options: OPTIONS,
  examples: [
    { command: 'gatehouse skills list', does: 'for the current folder' },
    { command: 'gatehouse skills list --project ~/code/app --json', does: "as JSON, with each skill's allowed tools" },
  ],
};

export const skillsCommand: CliCommand = {
  name: 'skills',
  help: HELP,
  async run(args, io) {
    const [sub, ...rest] = args;
    if (sub !== 'list') throw unknownChoice('subcommand', sub, ['list']);
    const { values, positionals } = parseCommandArgs(rest, OPTIONS);
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const projectRoot = projectDir(values.project, io.cwd);
    const configDir = userConfigDir(io.env);
    const trust = await new TrustStore({ configDir, env: io.env }).check(projectRoot);
    const projectTrusted = trust.trusted && (trust.extensions?.instructions ?? true);
    const where = { configDir, projectRoot, projectTrusted };
    const [skills, agents, backgroundAsk] = await Promise.all([
      discoverSkills(where),
      discoverAgents(where),
      readBackgroundAsk(configDir),
    ]);
    const problems = [...skills.problems, ...agents.problems];
    // A definition that is not offered fails the command (a CI check of a project's skills), after listing the rest.
    const code = problems.some((p) => p.severity === 'error') ? 1 : 0;
    if (backgroundAsk.problem) io.err(`gatehouse skills: ${backgroundAsk.problem}`);
    for (const p of problems) io.err(`gatehouse skills: ${p.severity}: ${p.path}: ${p.reason}`);
    if (values.json) {
      const strip = <T extends { body: string }>(item: T): Omit<T, 'body'> => {
        const { body: _body, ...rest } = item;
        return rest;
      };
      io.out(
        JSON.stringify({
          project: projectRoot,
          projectLoaded: projectTrusted,
          skills: skills.items.map(strip),
          agents: agents.items.map(strip),
          problems,
          backgroundAsk: backgroundAsk.value,
        }),
      );
      return code;
    }
    io.out(
      `skills and sub-agents for ${projectRoot} (project definitions ${projectTrusted ? 'loaded' : 'not loaded: the project is not trusted with its instructions'}):`,
    );
    for (const s of skills.items)
      io.out(
        `  skill ${s.name} (${s.source}) ${s.path}\n    ${s.description}\n    tools: ${s.allowedTools?.join(', ') ?? 'all (not narrowed)'}`,
      );
    for (const a of agents.items)
      io.out(
        `  agent ${a.name} (${a.source}) ${a.path}\n    ${a.description}\n    tools: ${a.tools?.join(', ') ?? 'all of the run that starts it'}; agent mode: ${a.agentMode ?? 'chat'}`,
      );
    if (!skills.items.length && !agents.items.length) io.out('  (none)');
    io.out(`background sub-agents' asks: ${backgroundAsk.value} (subagents.backgroundAsk)`);
    return code;
  },
};
