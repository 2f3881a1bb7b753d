import { GATEHOUSE_VERSION } from '../../../shared/version';
import { beforeTerminator, closestChoice } from './args';
import type { CliIO, CommandEntry } from './command';
import { UsageError } from './command';
import { COMMANDS, expandShorthand, findCommand } from './commands';
import { helpText, usageText } from './help-text';

function help(): string {
  const lines = [
    `gatehouse ${GATEHOUSE_VERSION}: a coding agent whose permission engine you can see and control`,
    '',
    'Usage: gatehouse <command> [options] [--] [arguments]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.name.padEnd(14)} ${c.summary}`),
    '',
    'Options:',
    "  --help, -h     show this help; `gatehouse <command> --help` shows a command's options and examples",
    '  --version, -v  print the version',
    '  --             ends the options: what follows is an argument even if it starts with "-"',
    '',
    'Environment:',
    '  ANTHROPIC_API_KEY   the model key (else the Settings page, or model.apiKey in your settings.yaml)',
    '  ANTHROPIC_BASE_URL  a server that speaks the Anthropic Messages API (else model.baseURL)',
    '  ANTHROPIC_MODEL     the model (else model.name, else the default)',
    '  GATEHOUSE_HOME      user config directory (default: the OS config folder, e.g. ~/.config/gatehouse)',
    '  GATEHOUSE_DESKTOP   the desktop app `gatehouse open` starts (default: where its packages install it)',
    '',
    'Examples:',
    '  gatehouse .                                   this folder in the desktop app (else in your browser)',
    '  gatehouse web --project ~/code/app --open     the app in your browser, on that folder',
    '  gatehouse run --project . "Explain the build"  the agent once, headless',
    '',
    'Reference: docs/cli.md in the Gatehouse repository.',
  ];
  return lines.join('\n');
}

function unknownCommand(first: string): string {
  const isFlag = first.startsWith('-');
  const near = isFlag
    ? closestChoice(first.replace(/^-+/, ''), ['help', 'version'])
    : closestChoice(
        first,
        COMMANDS.map((c) => c.name),
      );
  if (isFlag)
    return `gatehouse: unknown option ${first}${near ? ` (did you mean --${near}?)` : ''}. Run \`gatehouse --help\` for the usage.`;
  return `gatehouse: unknown command "${first}"${near ? ` (did you mean "${near}"?)` : ''}. Run \`gatehouse --help\` for the list.`;
}

async function commandHelp(entry: CommandEntry, io: CliIO): Promise<number> {
  io.out(helpText(await entry.load(), entry.summary));
  return 0;
}

/** Runs the CLI and returns its exit code. */
export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const [first, ...rest] = expandShorthand(argv);
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    // `gatehouse help trust` is `gatehouse trust --help`
    const named = first === 'help' && rest[0] !== undefined ? findCommand(rest[0]) : undefined;
    if (named) return commandHelp(named, io);
    if (first === 'help' && rest[0] !== undefined) {
      io.err(unknownCommand(rest[0]));
      return 2;
    }
    io.out(help());
    return first === undefined ? 2 : 0;
  }
  if (first === '--version' || first === '-v') {
    io.out(GATEHOUSE_VERSION);
    return 0;
  }
  const entry = findCommand(first);
  if (!entry) {
    io.err(unknownCommand(first));
    return 2;
  }
  const options = beforeTerminator(rest);
  if (options.includes('--help') || options.includes('-h')) return commandHelp(entry, io);
  const command = await entry.load();
  try {
    return await command.run(rest, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`gatehouse ${command.name}: ${err.message}`);
      io.err(usageText(command));
      return 2;
    }
    io.err(`gatehouse ${command.name}: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}
