import type { CliCommand, OptionSpec } from './command';

// `gatehouse <command> --help` and the usage printed with a bad argument, both made from the command's own table
// (CommandHelp, beside the options its parser takes).

const LABEL_WIDTH = 24;
const WIDTH = 100;

/** `text` broken into lines of at most WIDTH columns (a longer word keeps its own line), each indented. */
function wrap(text: string, indent: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && indent.length + line.length + 1 + word.length > WIDTH) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(indent + line);
  return lines;
}

function optionLabel(name: string, o: OptionSpec): string {
  if (o.type === 'boolean') return `--${name}`;
  const value = o.value ?? (o.choices ? o.choices.join('|') : 'VALUE');
  return `--${name} ${value}`;
}

function optionText(o: OptionSpec): string {
  const notes = [
    o.choices && o.value ? `one of: ${o.choices.join(', ')}${o.commaList ? ', comma-separated' : ''}` : '',
    o.multiple ? 'repeatable' : '',
  ].filter(Boolean);
  return [o.help, ...notes].join('; ');
}

/** A label and its text, wrapped: the text beside a short label, below a long one. */
function row(label: string, text: string): string[] {
  const indent = ' '.repeat(LABEL_WIDTH + 2);
  const lines = wrap(text, indent);
  if (label.length < LABEL_WIDTH) lines[0] = `  ${label.padEnd(LABEL_WIDTH)}${lines[0]!.slice(indent.length)}`;
  else lines.unshift(`  ${label}`);
  return lines;
}

/** The usage lines of a command, as printed after a usage error. */
function usageLines(command: CliCommand): string[] {
  return command.help.forms.map((f) => `gatehouse ${command.name}${f.usage ? ` ${f.usage}` : ''}`);
}

/** The usage printed with a bad argument: every form, then where the options and examples are. */
export function usageText(command: CliCommand): string {
  const lines = usageLines(command);
  return [
    `Usage: ${lines[0] ?? ''}`,
    ...lines.slice(1).map((l) => `       ${l}`),
    `(\`gatehouse ${command.name} --help\` for the options and examples)`,
  ].join('\n');
}

/** The whole help of a command: what it is for, its forms, every option, and examples. */
export function helpText(command: CliCommand, summary: string): string {
  const h = command.help;
  const forms = h.forms.flatMap((f) => {
    const [first = '', ...more] = wrap(`gatehouse ${command.name}${f.usage ? ` ${f.usage}` : ''}`, '      ');
    return [`  ${first.trimStart()}`, ...more, ...wrap(f.does, '      ')];
  });
  const options = Object.entries(h.options).flatMap(([name, o]) => row(optionLabel(name, o), optionText(o)));
  const examples = h.examples.flatMap((e) => [`  ${e.command}`, `      ${e.does}`]);
  return [
    `gatehouse ${command.name}: ${summary}`,
    '',
    ...wrap(h.description, ''),
    '',
    'Usage:',
    ...forms,
    '',
    'Options:',
    ...(options.length ? options : ['  (none)']),
    ...row('--help, -h', 'show this help'),
    '',
    'Examples:',
    ...examples,
    '',
    'Reference: docs/cli.md in the Gatehouse repository.',
  ].join('\n');
}
