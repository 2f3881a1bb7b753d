import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  findWindowsShell,
  isWslBash,
  registryValue,
  type ShellFinderDeps,
} from '../../../src/shared/node/windows-shell';

// The Windows shell finder on any OS: Windows paths (path.win32), a fake registry (what `reg query` prints) and a fake
// disk where only the listed files exist (compared as Windows does: case-insensitively).

const win = path.win32;

interface Machine {
  files?: string[];
  /** `reg query` output per key (a key not listed does not exist). */
  registry?: Record<string, string>;
  env?: Record<string, string>;
}

function regOutput(key: string, installPath: string, type = 'REG_SZ'): string {
  return `\r\n${key}\r\n    InstallPath    ${type}    ${installPath}\r\n    CurrentVersion    REG_SZ    2.47.1\r\n\r\n`;
}

function machine(m: Machine): ShellFinderDeps & { looked: string[]; queried: string[] } {
  const files = new Set((m.files ?? []).map((f) => win.normalize(f).toLowerCase()));
  const looked: string[] = [];
  const queried: string[] = [];
  return {
    env: { SystemRoot: 'C:\\Windows', PATH: '', ...m.env },
    looked,
    queried,
    isFile: async (p) => {
      looked.push(p);
      return files.has(win.normalize(p).toLowerCase());
    },
    queryRegistry: async (key, value) => {
      queried.push(`${key} ${value}`);
      return m.registry?.[key] ?? null;
    },
  };
}

const GIT = 'C:\\Program Files\\Git';
const GIT_BASH = `${GIT}\\bin\\bash.exe`;
const WSL_BASHES = [
  'C:\\Windows\\System32\\bash.exe',
  'c:\\windows\\SYSTEM32\\BASH.EXE',
  'C:/Windows/System32/bash.exe',
  '\\\\?\\C:\\Windows\\System32\\bash.exe',
  'C:\\Windows\\Sysnative\\bash.exe',
  'C:\\Windows\\SysWOW64\\bash.exe',
  'C:\\Windows\\System32\\..\\System32\\bash.exe',
  'C:\\Users\\ada\\AppData\\Local\\Microsoft\\WindowsApps\\bash.exe',
  'C:\\Program Files\\WindowsApps\\CanonicalGroupLimited.Ubuntu_2204\\bash.exe',
];
const POWERSHELL = 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe';

describe("the Windows shell: Git for Windows' bash, never WSL's, else PowerShell", () => {
  it('finds Git Bash from the registry (machine-wide first, then per user)', async () => {
    const m = machine({
      files: [GIT_BASH, 'D:\\Git\\bin\\bash.exe'],
      registry: {
        'HKLM\\SOFTWARE\\GitForWindows': regOutput('HKEY_LOCAL_MACHINE\\SOFTWARE\\GitForWindows', GIT),
        'HKCU\\SOFTWARE\\GitForWindows': regOutput('HKEY_CURRENT_USER\\SOFTWARE\\GitForWindows', 'D:\\Git'),
      },
    });
    expect(await findWindowsShell(m)).toEqual({
      kind: 'bash',
      path: GIT_BASH,
      windows: true,
      how: 'the registry (HKLM\\SOFTWARE\\GitForWindows)',
      problems: [],
    });
    expect(m.queried[0]).toBe('HKLM\\SOFTWARE\\GitForWindows InstallPath');
  });

  it('a per-user install is found under HKCU when HKLM has none', async () => {
    const m = machine({
      files: ['C:\\Users\\ada\\AppData\\Local\\Programs\\Git\\bin\\bash.exe'],
      registry: {
        'HKCU\\SOFTWARE\\GitForWindows': regOutput('HKCU', 'C:\\Users\\ada\\AppData\\Local\\Programs\\Git'),
      },
    });
    expect(await findWindowsShell(m)).toMatchObject({
      kind: 'bash',
      path: 'C:\\Users\\ada\\AppData\\Local\\Programs\\Git\\bin\\bash.exe',
    });
  });

  it('finds Git Bash from git.exe on PATH (cmd\\, mingw64\\bin\\), quoted entries and any spelling of Path', async () => {
    for (const gitDir of ['D:\\Tools\\Git\\cmd', 'D:\\Tools\\Git\\mingw64\\bin', 'D:\\Tools\\Git\\bin']) {
      const m = machine({
        files: [`${gitDir}\\git.exe`, 'D:\\Tools\\Git\\bin\\bash.exe'],
        env: { Path: `C:\\Windows\\System32;"${gitDir}";relative\\dir` },
      });
      expect(await findWindowsShell(m), gitDir).toMatchObject({
        kind: 'bash',
        path: 'D:\\Tools\\Git\\bin\\bash.exe',
        how: `git.exe on PATH (${gitDir})`,
      });
    }
  });

  it('a git.exe whose folder has no bash (a portable git, MinGit) is passed over for the next', async () => {
    const m = machine({
      files: ['C:\\MinGit\\cmd\\git.exe', 'E:\\Git\\cmd\\git.exe', 'E:\\Git\\bin\\bash.exe'],
      env: { PATH: 'C:\\MinGit\\cmd;E:\\Git\\cmd' },
    });
    expect((await findWindowsShell(m)).path).toBe('E:\\Git\\bin\\bash.exe');
  });

  it("falls back to Git for Windows' install folders", async () => {
    const m = machine({ files: [GIT_BASH], env: { ProgramFiles: 'C:\\Program Files' } });
    expect(await findWindowsShell(m)).toMatchObject({ kind: 'bash', path: GIT_BASH });
  });

  it("never takes WSL's bash.exe, in any spelling, from PATH, the registry or a variable", async () => {
    for (const wsl of WSL_BASHES) expect(isWslBash(wsl, { SystemRoot: 'C:\\Windows' }), wsl).toBe(true);
    expect(isWslBash('D:\\WINNT\\System32\\bash.exe', { SystemRoot: 'D:\\WINNT' })).toBe(true);
    expect(isWslBash(GIT_BASH, { SystemRoot: 'C:\\Windows' })).toBe(false);
    expect(isWslBash('C:\\Windows-tools\\Git\\bin\\bash.exe', { SystemRoot: 'C:\\Windows' })).toBe(false);
    for (const wsl of WSL_BASHES) {
      const dir = win.dirname(wsl);
      const m = machine({
        // git.exe beside WSL's bash, a registry pointing at the Windows folder, the variable naming it
        files: [...WSL_BASHES, `${dir}\\git.exe`, 'C:\\Windows\\bin\\bash.exe', POWERSHELL],
        registry: { 'HKLM\\SOFTWARE\\GitForWindows': regOutput('HKLM', 'C:\\Windows') },
        env: { PATH: dir, GATEHOUSE_GIT_BASH_PATH: wsl },
      });
      const shell = await findWindowsShell(m);
      expect(shell, wsl).toMatchObject({ kind: 'powershell', path: POWERSHELL });
      expect(shell.problems, wsl).toEqual([
        `GATEHOUSE_GIT_BASH_PATH=${wsl} is not used: WSL's bash, which runs commands in a Linux VM: Gatehouse uses Git for Windows' bash only`,
      ]);
    }
  });

  it('a path the person set comes first (Gatehouse, then Claude Code variable); one that does not work is said', async () => {
    const custom = 'E:\\PortableGit\\bin\\bash.exe';
    const registry = { 'HKLM\\SOFTWARE\\GitForWindows': regOutput('HKLM', GIT) };
    const set = await findWindowsShell(
      machine({ files: [custom, GIT_BASH], registry, env: { CLAUDE_CODE_GIT_BASH_PATH: custom } }),
    );
    expect(set).toMatchObject({ kind: 'bash', path: custom, how: 'CLAUDE_CODE_GIT_BASH_PATH', problems: [] });
    const both = await findWindowsShell(
      machine({
        files: [custom, GIT_BASH],
        registry,
        env: { GATEHOUSE_GIT_BASH_PATH: 'bin\\bash.exe', CLAUDE_CODE_GIT_BASH_PATH: 'E:\\missing\\bash.exe' },
      }),
    );
    expect(both).toMatchObject({ kind: 'bash', path: GIT_BASH, how: 'the registry (HKLM\\SOFTWARE\\GitForWindows)' });
    expect(both.problems).toEqual([
      'GATEHOUSE_GIT_BASH_PATH=bin\\bash.exe is not used: not an absolute path',
      'CLAUDE_CODE_GIT_BASH_PATH=E:\\missing\\bash.exe is not used: no such file',
    ]);
  });

  it('without Git Bash: pwsh on PATH, then Windows PowerShell, then the bare name', async () => {
    const pwsh = 'C:\\Program Files\\PowerShell\\7\\pwsh.exe';
    expect(
      await findWindowsShell(machine({ files: [pwsh, POWERSHELL], env: { PATH: 'C:\\Program Files\\PowerShell\\7' } })),
    ).toEqual({
      kind: 'powershell',
      path: pwsh,
      windows: true,
      how: 'pwsh.exe on PATH (no Git Bash found)',
      problems: [],
    });
    expect(await findWindowsShell(machine({ files: [POWERSHELL] }))).toMatchObject({ path: POWERSHELL });
    expect(await findWindowsShell(machine({}))).toMatchObject({ kind: 'powershell', path: 'powershell.exe' });
  });

  it('a registry or disk that fails is a place where nothing was found, never an error', async () => {
    const m: ShellFinderDeps = {
      env: { SystemRoot: 'C:\\Windows', PATH: 'C:\\Git\\cmd' },
      isFile: async (p) => {
        if (p.endsWith('git.exe')) throw new Error('EACCES');
        return p === POWERSHELL;
      },
      queryRegistry: async () => {
        throw new Error('reg.exe is missing');
      },
    };
    expect(await findWindowsShell(m)).toMatchObject({ kind: 'powershell', path: POWERSHELL });
  });
});

describe('reg query output', () => {
  it('reads the value of REG_SZ and REG_EXPAND_SZ lines, with spaces in the folder, whatever the line ends', () => {
    expect(registryValue(regOutput('HKLM', 'C:\\Program Files\\Git'), 'InstallPath')).toBe('C:\\Program Files\\Git');
    expect(registryValue(regOutput('HKLM', 'D:\\Git  ', 'REG_EXPAND_SZ'), 'installpath')).toBe('D:\\Git');
    expect(registryValue('\n    InstallPath    REG_SZ    E:\\G\n', 'InstallPath')).toBe('E:\\G');
  });
  it('nothing for another value, another type, an empty value or an error message', () => {
    expect(registryValue('    CurrentVersion    REG_SZ    2.47\r\n', 'InstallPath')).toBeNull();
    expect(registryValue('    InstallPath    REG_DWORD    0x1\r\n', 'InstallPath')).toBeNull();
    expect(registryValue('    InstallPath    REG_SZ    \r\n', 'InstallPath')).toBeNull();
    expect(
      registryValue('ERROR: The system was unable to find the specified registry key or value.', 'InstallPath'),
    ).toBeNull();
  });
});
