import { commandShell, type CommandShell } from '../../../shared/node/command-shell';
import { userConfigDir } from '../../core/fs/config-dir';
import { sandboxDoctor, type SandboxDoctorReport } from '../../core/sandbox/sandbox-doctor';
import { TrustStore } from '../../core/trust/trust-store';
import { parseCommandArgs } from './args';
import { JSON_OUTPUT, PROJECT } from './cli-options';
import type { CliCommand, CliIO, CommandHelp, OptionSpecs } from './command';
import { UsageError } from './command';
import { checkDecisionHelper, type HelperCheck } from './decision-helper-check';
import { projectDir } from './project';

/**
 * `gatehouse doctor`: what confines a project's commands, said plainly. The sandbox (which one, or why there is
 * none and what that means), the doors out of it that stay shut (sockets of services with more authority than the
 * sandbox), the ones the person opened on purpose, and whether the decision helper refuses a client without its
 * secret. Exit code 1 when something is wrong: a sandbox that is on but does not work, or a helper that does not
 * authenticate its clients.
 */

/** Folders listed in the text output (all of them in --json). */
const SHOWN = 12;

function sandboxLines(s: SandboxDoctorReport): string[] {
  const lines: string[] = [];
  if (!s.enabled) lines.push(`sandbox: off: ${s.reason ?? ''}`);
  else if (!s.available)
    lines.push(
      `sandbox: unavailable: ${s.reason ?? ''}`,
      '  so every command asks a person first, whatever the rules and the mode',
    );
  else lines.push(`sandbox: ${s.mechanism ?? ''} (works: a real probe ran in it)`);
  if (s.doors.rule === 'masked') {
    const { folders, sockets } = s.doors;
    lines.push(
      `doors masked: ${folders.length + sockets.length} (${folders.length} folders, ${sockets.length} sockets) ` +
        '- sockets of services with more authority than the sandbox (buses, agents, engines, the decision helper)',
    );
    for (const f of folders.slice(0, SHOWN)) lines.push(`  ${f}/`);
    if (folders.length > SHOWN) lines.push(`  ... and ${folders.length - SHOWN} more folders (--json lists them)`);
    if (sockets.length > 0)
      lines.push(`  and ${sockets.length} socket${sockets.length === 1 ? '' : 's'} elsewhere (--json lists them)`);
  } else if (s.doors.rule === 'denied')
    lines.push('doors: Seatbelt denies connecting to any unix socket but the ones opened below');
  else lines.push('doors: none masked (no sandbox)');
  if (s.opened.length === 0) lines.push('opened on purpose (sandbox.allowUnixSockets): none');
  else {
    lines.push('opened on purpose (sandbox.allowUnixSockets):');
    for (const o of s.opened) lines.push(`  ${o.path}${o.present ? '' : '  (not a socket now: nothing to open)'}`);
    if (s.keptVariables.length > 0) lines.push(`  kept in the environment: ${s.keptVariables.join(', ')}`);
  }
  for (const p of s.problems) lines.push(`ignored: ${p}`);
  return lines;
}

/** Windows: what runs the commands (Git Bash, or PowerShell, which the engine cannot read). */
export function shellLines(shell: CommandShell): string[] {
  const lines =
    shell.kind === 'bash'
      ? [`commands run in: Git Bash (${shell.path}, found through ${shell.how})`]
      : [
          `commands run in: PowerShell (${shell.path}): no Git Bash was found`,
          '  Gatehouse cannot read PowerShell, so every command asks; install Git for Windows, or set',
          '  GATEHOUSE_GIT_BASH_PATH to its bash.exe, to run commands in bash',
        ];
  for (const p of shell.problems) lines.push(`ignored: ${p}`);
  return lines;
}

function helperLines(h: HelperCheck): string[] {
  if (!h.enabled) return ['decision helper: off (GATEHOUSE_DECISION_HELPER): every check runs in its own process'];
  const lines = [
    `decision helper: authenticates every client with a secret made at each start (0600, in ${h.folder ?? '?'})`,
  ];
  if (h.folderProblem) lines.push(`  its folder is unsafe, so no helper is used or started: ${h.folderProblem}`);
  if (h.running.length === 0) lines.push('  none running now (the first check starts one)');
  for (const r of h.running) lines.push(`  ${r.socket}: ${r.detail}`);
  return lines;
}

const OPTIONS = { project: PROJECT, json: JSON_OUTPUT } as const satisfies OptionSpecs;

const HELP: CommandHelp = {
  description:
    "What confines the project's commands: the OS sandbox (bubblewrap, Seatbelt) or why there is none, the sockets " +
    'it keeps out of reach, the ones your settings opened on purpose, and whether the decision helper authenticates ' +
    'its clients. Exits 1 when the sandbox is on but does not work, or a helper does not authenticate.',
  forms: [{ usage: '[--project DIR] [--json]', does: 'check the sandbox and the decision helper for the project' }],
  options: OPTIONS,
  examples: [
    { command: 'gatehouse doctor', does: 'for the current folder' },
    { command: 'gatehouse doctor --project ~/code/app --json', does: 'every masked folder and socket, as JSON' },
  ],
};

export const doctorCommand: CliCommand = {
  name: 'doctor',
  help: HELP,
  async run(args: string[], io: CliIO) {
    const { values, positionals } = parseCommandArgs(args, OPTIONS);
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const projectRoot = projectDir(values.project, io.cwd);
    const configDir = userConfigDir(io.env);
    const trusted = (await new TrustStore({ configDir, env: io.env }).check(projectRoot)).trusted;
    const [sandbox, helper, found] = await Promise.all([
      sandboxDoctor({ configDir, projectRoot, projectTrusted: trusted, env: io.env }),
      checkDecisionHelper(io.env),
      commandShell(),
    ]);
    // Linux and macOS run commands in bash as ever: only Windows says which shell it found.
    const shell = found.windows ? found : null;
    if (values.json)
      io.out(
        JSON.stringify({ project: projectRoot, trusted, sandbox, ...(shell ? { shell } : {}), decisionHelper: helper }),
      );
    else
      for (const line of [
        `gatehouse doctor: ${projectRoot} (${trusted ? 'trusted' : 'not trusted'})`,
        ...sandboxLines(sandbox),
        ...(shell ? shellLines(shell) : []),
        ...helperLines(helper),
      ])
        io.out(line);
    const wrong = (sandbox.enabled && !sandbox.available) || helper.running.some((r) => r.authenticates === false);
    return wrong ? 1 : 0;
  },
};
