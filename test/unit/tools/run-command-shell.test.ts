import { describe, expect, it } from 'vitest';
import { splitWindowsCommandLine } from '../../support/windows-command-line';
import { POSIX_BASH, type CommandShell } from '../../../src/shared/node/command-shell';
import { directCommand } from '../../../src/sandbox/direct-command';
import { WRAPPER_SCRIPT } from '../../../src/worker/tools/pty-sentinel';
import { createRunCommandTool, ptyLaunch } from '../../../src/worker/tools/run-command';

// What run_command's pty starts on each platform, and what the model is told: Linux and macOS as ever; Windows Git
// Bash or PowerShell, their arguments as one Windows command line that parses back to exactly the argv meant.

const GIT_BASH: CommandShell = {
  kind: 'bash',
  path: 'C:\\Program Files\\Git\\bin\\bash.exe',
  windows: true,
  how: 'the registry',
  problems: [],
};
const POWERSHELL: CommandShell = {
  kind: 'powershell',
  path: 'C:\\Program Files\\PowerShell\\7\\pwsh.exe',
  windows: true,
  how: 'pwsh.exe on PATH',
  problems: [],
};

const COMMAND = `printf '%s\\n' "a b" *.md; echo "C:\\dir\\" done`;

describe("run_command's launch", () => {
  it('Linux and macOS: bash runs the end-marker wrapper around the argv, as before', () => {
    const spec = directCommand(COMMAND, '/p', [], {}, POSIX_BASH);
    expect(ptyLaunch(POSIX_BASH, 'MARK', spec)).toEqual({
      file: 'bash',
      args: ['-c', WRAPPER_SCRIPT, 'gatehouse', 'MARK', 'bash', '-c', COMMAND],
    });
  });

  it("Windows with Git Bash: its bash.exe, stdin from /dev/null, the command run by Git Bash's own bash", () => {
    const spec = directCommand(COMMAND, 'C:\\p', [], {}, GIT_BASH);
    const launch = ptyLaunch(GIT_BASH, 'MARK', spec);
    expect(launch.file).toBe(GIT_BASH.path);
    expect(typeof launch.args).toBe('string');
    expect(splitWindowsCommandLine(launch.args as string)).toEqual([
      '-c',
      'exec "$@" </dev/null',
      'gatehouse',
      'bash',
      '-c',
      COMMAND,
    ]);
  });

  it('Windows without Git Bash: PowerShell itself, the command encoded', () => {
    const spec = directCommand('Get-ChildItem "C:\\a b"', 'C:\\p', [], {}, POWERSHELL);
    const launch = ptyLaunch(POWERSHELL, 'MARK', spec);
    expect(launch.file).toBe(POWERSHELL.path);
    const args = splitWindowsCommandLine(launch.args as string);
    expect(args.slice(0, 4)).toEqual(['-NoLogo', '-NoProfile', '-NonInteractive', '-EncodedCommand']);
    expect(Buffer.from(args[4]!, 'base64').toString('utf16le')).toBe('Get-ChildItem "C:\\a b"');
  });

  it('tells the model which shell runs its commands, and on Windows that there is no sandbox', () => {
    const describe = (shell?: CommandShell) =>
      createRunCommandTool({ defaultTimeoutMs: 1_000, killGraceMs: 10, ...(shell ? { shell } : {}) }).description;
    expect(describe()).toMatch(/^Run a bash command in the project root \(bash -c, in a terminal\)\./);
    expect(describe()).toContain('Commands run in an OS sandbox');
    expect(describe(GIT_BASH)).toMatch(/^Run a bash command in the project root \(bash -c, Git for Windows' bash/);
    expect(describe(POWERSHELL)).toMatch(/^Run a PowerShell command in the project root/);
    for (const shell of [GIT_BASH, POWERSHELL]) {
      expect(describe(shell)).toContain(
        'Windows has no command sandbox: commands run unconfined, each approved by a person unless they turned the sandbox off.',
      );
      expect(describe(shell)).not.toContain('unsandboxed');
    }
  });
});
