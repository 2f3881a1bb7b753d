import { describe, expect, it } from 'vitest';
import { closestChoice, parseCommandArgs } from '../../../src/main/shells/cli/args';
import type { CliCommand, OptionSpec } from '../../../src/main/shells/cli/command';
import { UsageError } from '../../../src/main/shells/cli/command';
import { COMMANDS } from '../../../src/main/shells/cli/commands';

// Every subcommand's --help comes from one table beside its parser (CommandHelp): a description, each form, every
// option it takes with a line of help, and examples. These tests hold the table to what the parser accepts, so the
// help can neither list an option the command refuses nor leave one out; an option with choices suggests the one
// meant for a mistyped value. The built CLI prints it: test/integration/cli-help.test.ts.

const loaded: [string, CliCommand][] = await Promise.all(
  COMMANDS.map(async (c) => [c.name, await c.load()] as [string, CliCommand]),
);

/** A command line's words, as a POSIX shell splits them for the cases used in examples (quotes, no expansions). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/'([^']*)'|"((?:[^"\\]|\\.)*)"|([^\s'"]+)/g)) words.push(m[1] ?? m[2] ?? m[3]!);
  return words;
}

/** The `--name` flags of a usage line or command line, before any `--` (after it come a program's own flags). */
function flags(words: readonly string[]): string[] {
  const end = words.indexOf('--');
  return (end === -1 ? words : words.slice(0, end))
    .flatMap((w) => w.split(/[[\]()|]/))
    .filter((w) => /^--[a-z]/.test(w))
    .map((w) => w.slice(2).split('=')[0]!);
}

describe.each(loaded)('gatehouse %s --help', (name, command) => {
  const { help } = command;
  const options = Object.keys(help.options);

  it('says what the command is for, each form, and at least two examples', () => {
    expect(help.description.length).toBeGreaterThan(60);
    expect(help.forms.length).toBeGreaterThan(0);
    for (const f of help.forms) expect(f.does.length, f.usage).toBeGreaterThan(5);
    expect(help.examples.length).toBeGreaterThanOrEqual(2);
    for (const e of help.examples) {
      expect(shellWords(e.command), e.command).toContain('gatehouse');
      expect(shellWords(e.command)[shellWords(e.command).indexOf('gatehouse') + 1], e.command).toBe(name);
      expect(e.does.length, e.command).toBeGreaterThan(5);
    }
  });

  it('lists exactly the options its forms use, each with a line of help', () => {
    const used = new Set(help.forms.flatMap((f) => flags(shellWords(f.usage))));
    expect([...used].sort()).toEqual([...options].sort());
    for (const [flag, o] of Object.entries(help.options)) expect(o.help.length, flag).toBeGreaterThan(10);
  });

  it('gives only options it takes in its examples, with values its choices allow', () => {
    for (const e of help.examples) {
      const words = shellWords(e.command);
      const args = words.slice(words.indexOf('gatehouse') + 2);
      for (const flag of flags(args)) expect(options, `${e.command}: --${flag}`).toContain(flag);
      for (const [i, word] of args.entries()) {
        const spec = help.options[word.slice(2)];
        if (!word.startsWith('--') || !spec?.choices) continue;
        for (const value of spec.commaList ? args[i + 1]!.split(',') : [args[i + 1]!])
          expect(spec.choices, `${e.command}: ${word} ${value}`).toContain(value);
      }
    }
  });
});

const withChoices: [string, string, OptionSpec][] = loaded.flatMap(([name, c]) =>
  Object.entries(c.help.options)
    .filter(([, o]) => o.choices)
    .map(([flag, o]) => [name, flag, o] as [string, string, OptionSpec]),
);

describe('options with choices', () => {
  it('exist (the scopes, modes, behaviours, formats)', () => {
    expect(withChoices.map(([n, f]) => `${n} --${f}`)).toEqual(
      expect.arrayContaining(['trust --scope', 'rules --scope', 'rules --behavior', 'run --mode', 'run --output']),
    );
  });

  it.each(withChoices)('%s --%s: refuses any other value and suggests the one meant', (_name, flag, spec) => {
    const choices = spec.choices!;
    for (const choice of choices) {
      expect(parseCommandArgs([`--${flag}`, choice], { [flag]: spec }).values[flag]).toEqual(
        spec.multiple ? [choice] : choice,
      );
      // Cut short (a prefix), miscased, and with a letter dropped from the middle: each points at the choice.
      const typos = [choice.slice(0, Math.max(2, choice.length - 1)), choice.toUpperCase()];
      if (choice.length > 4) typos.push(choice.slice(0, 2) + choice.slice(3));
      for (const typo of typos.filter((t) => t !== choice)) {
        let error: unknown;
        try {
          parseCommandArgs([`--${flag}=${typo}`], { [flag]: spec });
        } catch (err) {
          error = err;
        }
        expect(error, `--${flag} ${typo}`).toBeInstanceOf(UsageError);
        expect((error as Error).message).toBe(
          `--${flag} must be ${choices.length > 1 ? `${choices.slice(0, -1).join(', ')} or ${choices.at(-1)}` : choices[0]}, not "${typo}" (did you mean "${choice}"?)`,
        );
      }
    }
  });

  it('checks each value of a comma-separated list', () => {
    const spec = { type: 'string', multiple: true, choices: ['rules', 'hooks'], commaList: true, help: 'x' } as const;
    expect(parseCommandArgs(['--without', 'rules,hooks'], { without: spec }).values.without).toEqual(['rules,hooks']);
    expect(() => parseCommandArgs(['--without', 'rules,hoks'], { without: spec })).toThrow(
      '--without must be rules or hooks, not "hoks" (did you mean "hooks"?)',
    );
  });

  it('suggests nothing for a word near no choice, and never takes a prefix as the value', () => {
    expect(closestChoice('zzz', ['directory', 'parent', 'never'])).toBeNull();
    expect(closestChoice('p', ['project', 'parent'])).toBeNull();
    expect(closestChoice('pa', ['project', 'parent'])).toBe('parent');
    expect(() => parseCommandArgs(['--scope', 'dir'], { scope: withChoices[0]![2] })).toThrow(UsageError);
  });
});
