/**
 * The shell the agent's commands and the person's own hooks run in on Windows, found as Claude Code finds it: Git for
 * Windows' bash (a path the person set, the registry, `git.exe` on PATH, the default install folders), never WSL's
 * `bash.exe` (it runs the command in a Linux VM, with other paths, other programs and none of Windows' tools);
 * otherwise PowerShell (`pwsh`, then Windows PowerShell). Every path here is a Windows path (`path.win32`), so the
 * finder is tested on any OS with a fake registry and file system.
 */
import { execFile } from 'node:child_process';
import * as fsp from 'node:fs/promises';
import path from 'node:path';

const win = path.win32;

/** What runs a command on this machine: bash (Git Bash on Windows) or PowerShell, and how it was found. */
export interface CommandShell {
  kind: 'bash' | 'powershell';
  /** The program (a bare `bash` on Linux and macOS: the first on PATH, as before). */
  path: string;
  /** Found on Windows: its command lines follow Windows' rules (windows-command-line.ts). */
  windows: boolean;
  /** How it was found, for `gatehouse doctor`. */
  how: string;
  /** A Git Bash path the person set that was not used, and why. */
  problems: string[];
}

/** Variables naming Git Bash: Gatehouse's own, then Claude Code's (`CLAUDE_CODE_GIT_BASH_PATH`), as a person set it. */
export const GIT_BASH_VARIABLES = ['GATEHOUSE_GIT_BASH_PATH', 'CLAUDE_CODE_GIT_BASH_PATH'] as const;

/** Where Git for Windows' installer records its folder (machine-wide, then per user). */
const GIT_REGISTRY_KEYS = ['HKLM\\SOFTWARE\\GitForWindows', 'HKCU\\SOFTWARE\\GitForWindows'];

export interface ShellFinderDeps {
  env: Readonly<Record<string, string | undefined>>;
  /** True when a regular file exists at this Windows path. */
  isFile(p: string): Promise<boolean>;
  /** The output of `reg query KEY /v VALUE`, or null when the key or value does not exist (or reg failed). */
  queryRegistry(key: string, value: string): Promise<string | null>;
}

/** A variable of a Windows environment, whatever its case (`Path`, `PATH`; `SystemRoot`, `SYSTEMROOT`). */
function envValue(env: ShellFinderDeps['env'], name: string): string | undefined {
  const upper = name.toUpperCase();
  for (const [k, v] of Object.entries(env)) if (k.toUpperCase() === upper && v !== undefined && v !== '') return v;
  return undefined;
}

function systemRoot(env: ShellFinderDeps['env']): string {
  return envValue(env, 'SystemRoot') ?? envValue(env, 'windir') ?? 'C:\\Windows';
}

/** One path's segments, lower case, `\\?\` and the drive's case set aside: how Windows compares them. */
function segments(p: string): string[] {
  return win
    .normalize(p.replace(/^\\\\\?\\/, ''))
    .toLowerCase()
    .split('\\')
    .filter((s) => s !== '');
}

function isUnder(p: string, folder: string): boolean {
  const a = segments(p);
  const b = segments(folder);
  return b.length > 0 && a.length > b.length && b.every((s, i) => a[i] === s);
}

/**
 * WSL's launcher, not Git Bash: anything under the Windows folder (`System32\bash.exe`, `Sysnative`, `SysWOW64`) or in
 * an app-execution-alias folder (`…\Microsoft\WindowsApps\bash.exe`, a distribution's own `ubuntu.exe` beside it).
 */
export function isWslBash(p: string, env: ShellFinderDeps['env']): boolean {
  return isUnder(p, systemRoot(env)) || segments(p).includes('windowsapps');
}

/** The value of one `reg query` line (`    InstallPath    REG_SZ    C:\Program Files\Git`), or null. */
export function registryValue(output: string, value: string): string | null {
  for (const line of output.split(/\r?\n/)) {
    const m = /^\s*(\S+)\s+REG_(?:EXPAND_)?SZ\s+(.*?)\s*$/.exec(line);
    if (m !== null && m[1]!.toLowerCase() === value.toLowerCase() && m[2] !== '') return m[2]!;
  }
  return null;
}

async function firstFile(candidates: readonly string[], deps: ShellFinderDeps): Promise<string | null> {
  for (const c of candidates) if (!isWslBash(c, deps.env) && (await deps.isFile(c))) return c;
  return null;
}

function pathDirs(env: ShellFinderDeps['env']): string[] {
  return (envValue(env, 'PATH') ?? '')
    .split(';')
    .map((d) => d.trim().replace(/^"(.*)"$/, '$1'))
    .filter((d) => d !== '' && win.isAbsolute(d));
}

async function fromVariables(deps: ShellFinderDeps, problems: string[]): Promise<CommandShell | null> {
  for (const name of GIT_BASH_VARIABLES) {
    const value = deps.env[name]?.trim();
    if (!value) continue;
    const why = !win.isAbsolute(value)
      ? 'not an absolute path'
      : isWslBash(value, deps.env)
        ? "WSL's bash, which runs commands in a Linux VM: Gatehouse uses Git for Windows' bash only"
        : !(await deps.isFile(value))
          ? 'no such file'
          : null;
    if (why === null) return { kind: 'bash', path: win.normalize(value), windows: true, how: `${name}`, problems };
    problems.push(`${name}=${value} is not used: ${why}`);
  }
  return null;
}

async function fromRegistry(deps: ShellFinderDeps, problems: string[]): Promise<CommandShell | null> {
  for (const key of GIT_REGISTRY_KEYS) {
    const output = await deps.queryRegistry(key, 'InstallPath');
    const folder = output === null ? null : registryValue(output, 'InstallPath');
    if (folder === null || !win.isAbsolute(folder)) continue;
    const found = await firstFile([win.join(folder, 'bin', 'bash.exe')], deps);
    if (found !== null) return { kind: 'bash', path: found, windows: true, how: `the registry (${key})`, problems };
  }
  return null;
}

/** `git.exe` on PATH, in Git for Windows' `cmd\`, `bin\` or `mingw64\bin\`: its `bin\bash.exe`. */
async function fromGitOnPath(deps: ShellFinderDeps, problems: string[]): Promise<CommandShell | null> {
  for (const dir of pathDirs(deps.env)) {
    if (!(await deps.isFile(win.join(dir, 'git.exe')))) continue;
    const found = await firstFile(
      [win.join(dir, '..', 'bin', 'bash.exe'), win.join(dir, '..', '..', 'bin', 'bash.exe')],
      deps,
    );
    if (found !== null) return { kind: 'bash', path: found, windows: true, how: `git.exe on PATH (${dir})`, problems };
  }
  return null;
}

async function fromInstallFolders(deps: ShellFinderDeps, problems: string[]): Promise<CommandShell | null> {
  const roots = [
    envValue(deps.env, 'ProgramFiles'),
    envValue(deps.env, 'ProgramW6432'),
    envValue(deps.env, 'LOCALAPPDATA') && win.join(envValue(deps.env, 'LOCALAPPDATA')!, 'Programs'),
  ].filter((r): r is string => typeof r === 'string' && win.isAbsolute(r));
  const found = await firstFile(
    roots.map((r) => win.join(r, 'Git', 'bin', 'bash.exe')),
    deps,
  );
  return found === null
    ? null
    : { kind: 'bash', path: found, windows: true, how: "Git for Windows' install folder", problems };
}

async function powerShell(deps: ShellFinderDeps, problems: string[]): Promise<CommandShell> {
  for (const dir of pathDirs(deps.env)) {
    const pwsh = win.join(dir, 'pwsh.exe');
    if (await deps.isFile(pwsh))
      return { kind: 'powershell', path: pwsh, windows: true, how: 'pwsh.exe on PATH (no Git Bash found)', problems };
  }
  const builtIn = win.join(systemRoot(deps.env), 'System32', 'WindowsPowerShell', 'v1.0', 'powershell.exe');
  const found = (await deps.isFile(builtIn)) ? builtIn : 'powershell.exe';
  return { kind: 'powershell', path: found, windows: true, how: 'Windows PowerShell (no Git Bash found)', problems };
}

/** Git Bash if there is one (never WSL's), else PowerShell. Never throws: a failing look-up is a place not found. */
export async function findWindowsShell(deps: ShellFinderDeps): Promise<CommandShell> {
  const problems: string[] = [];
  for (const step of [fromVariables, fromRegistry, fromGitOnPath, fromInstallFolders]) {
    const found = await step(deps, problems).catch(() => null);
    if (found !== null) return found;
  }
  return powerShell(deps, problems);
}

/** The real machine: its registry through `reg.exe` (asynchronously, no shell) and its files. */
export function machineShellFinderDeps(env: NodeJS.ProcessEnv = process.env): ShellFinderDeps {
  const reg = win.join(systemRoot(env), 'System32', 'reg.exe');
  return {
    env,
    isFile: (p) =>
      fsp.stat(p).then(
        (s) => s.isFile(),
        () => false,
      ),
    queryRegistry: (key, value) =>
      new Promise((resolve) => {
        execFile(reg, ['query', key, '/v', value], { timeout: 10_000, windowsHide: true }, (err, stdout) =>
          resolve(err ? null : stdout),
        );
      }),
  };
}
