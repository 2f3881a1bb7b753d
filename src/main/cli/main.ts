import { closest } from '../../shared/closest';
import { GATEHOUSE_VERSION } from '../../shared/version';
import { beforeTerminator } from './args';
import type { CliIO } from './command';
import { UsageError } from './command';
import { COMMANDS, findCommand } from './commands';

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
    '  --help, -h     show this help (or `gatehouse <command> --help`)',
    '  --version, -v  print the version',
    '  --             ends the options: what follows is an argument even if it starts with "-"',
    '',
    'Environment:',
    '  GATEHOUSE_HOME  user config directory (default: the OS config folder, e.g. ~/.config/gatehouse)',
  ];
  return lines.join('\n');
}

function unknownCommand(first: string): string {
  const isFlag = first.startsWith('-');
  const near = isFlag
    ? closest(first.replace(/^-+/, ''), ['help', 'version'])
    : closest(
        first,
        COMMANDS.map((c) => c.name),
      );
  if (isFlag)
    return `gatehouse: unknown option ${first}${near ? ` (did you mean --${near}?)` : ''}. Run \`gatehouse --help\` for the usage.`;
  return `gatehouse: unknown command "${first}"${near ? ` (did you mean "${near}"?)` : ''}. Run \`gatehouse --help\` for the list.`;
}

/** Runs the CLI and returns its exit code. */
export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
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
  const command = await entry.load();
  const options = beforeTerminator(rest);
  if (options.includes('--help') || options.includes('-h')) {
    io.out(`Usage: ${command.usage}`);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`gatehouse ${command.name}: ${err.message}`);
      io.err(`Usage: ${command.usage}`);
      return 2;
    }
    io.err(`gatehouse ${command.name}: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}
