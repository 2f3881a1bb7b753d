import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitWindowsCommandLine } from '../../support/windows-command-line';
import {
  commandArgv,
  commandShell,
  POSIX_BASH,
  powerShellArgs,
  quoteWindowsArg,
  shellArgv,
  windowsCommandLine,
  type CommandShell,
} from '../../../src/shared/node/command-shell';

const GIT_BASH: CommandShell = {
  kind: 'bash',
  path: 'C:\\Program Files\\Git\\bin\\bash.exe',
  windows: true,
  how: 'the registry',
  problems: [],
};
const POWERSHELL: CommandShell = {
  kind: 'powershell',
  path: 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
  windows: true,
  how: 'Windows PowerShell',
  problems: [],
};

describe('Windows command lines', () => {
  it('every argument comes back exactly as given: quotes, backslashes, spaces, globs (fast-check prints the seed of a failure)', () => {
    const unit = fc.constantFrom(
      'a',
      'Z',
      ' ',
      '\t',
      '"',
      '\\',
      '*',
      '?',
      "'",
      '$',
      '`',
      '&',
      '|',
      '^',
      '%',
      'é',
      '\n',
      '{',
    );
    fc.assert(
      fc.property(fc.array(fc.string({ unit, maxLength: 12 }), { minLength: 1, maxLength: 5 }), (argv) => {
        expect(splitWindowsCommandLine(windowsCommandLine(argv))).toEqual(argv);
      }),
      { numRuns: 3000 },
    );
  });

  it('quotes every argument, so no runtime expands a glob in it; backslashes double only before a quote', () => {
    expect(quoteWindowsArg('*.js')).toBe('"*.js"');
    expect(quoteWindowsArg('')).toBe('""');
    expect(quoteWindowsArg('C:\\dir\\')).toBe('"C:\\dir\\\\"');
    expect(quoteWindowsArg('say "hi"')).toBe('"say \\"hi\\""');
    expect(quoteWindowsArg('a\\"b')).toBe('"a\\\\\\"b"');
    // what node-pty's own quoting gets wrong: an argument that starts and ends with a quote and holds a space
    expect(splitWindowsCommandLine(windowsCommandLine(['"C:/a b/x.exe" "y z"']))).toEqual(['"C:/a b/x.exe" "y z"']);
  });
});

describe('what runs a command string', () => {
  it('PowerShell gets the command as -EncodedCommand (UTF-16LE, base64), no profile, no prompts', () => {
    const command = `Get-ChildItem -Path "C:\\Users\\ada" | Where-Object { $_.Name -like '*.md' } # é ✓`;
    const args = powerShellArgs(command);
    expect(args.slice(0, 4)).toEqual(['-NoLogo', '-NoProfile', '-NonInteractive', '-EncodedCommand']);
    expect(args[4]).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(args[4]!, 'base64').toString('utf16le')).toBe(command);
    expect(shellArgv(POWERSHELL, command)).toEqual({ file: POWERSHELL.path, args });
    expect(commandArgv(POWERSHELL, command)).toEqual({ file: POWERSHELL.path, args });
  });

  it("bash: the hook form names the shell; run_command's inner form is the wrapper's own bash", () => {
    expect(shellArgv(GIT_BASH, 'echo hi')).toEqual({ file: GIT_BASH.path, args: ['-c', 'echo hi'] });
    expect(commandArgv(GIT_BASH, 'echo hi')).toEqual({ file: 'bash', args: ['-c', 'echo hi'] });
    expect(commandArgv(POSIX_BASH, 'echo hi')).toEqual({ file: 'bash', args: ['-c', 'echo hi'] });
  });

  it('Linux and macOS run bash from PATH, without looking for anything', async () => {
    expect(await commandShell('linux')).toBe(POSIX_BASH);
    expect(await commandShell('darwin')).toBe(POSIX_BASH);
  });
});
