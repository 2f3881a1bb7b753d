/** Shared by the sandbox tests: temp homes/projects and running a wrapped command for real. */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import type * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { findOnPath } from '../../../src/sandbox/find-binary';
import { createCommandSandbox } from '../../../src/sandbox/command-sandbox';
import type { CommandSandbox, CommandSandboxConfig, WrappedCommand } from '../../../src/sandbox/types';

export const bwrapPath = await findOnPath('bwrap');
export const socatPath = await findOnPath('socat');
export const curlPath = await findOnPath('curl');
/** Why the real-bubblewrap tests are skipped, or null when they run. */
export const noBwrapReason =
  process.platform !== 'linux' ? 'not Linux' : bwrapPath === null ? 'bwrap is not installed' : null;

export interface SandboxWorld {
  root: string;
  home: string;
  project: string;
  outside: string;
  userConfigDir: string;
  config(extra?: Partial<CommandSandboxConfig>): CommandSandboxConfig;
  remove(): void;
}

/**
 * Where test worlds live. Not under /tmp: the sandbox gives every command a private /tmp, so a HOME under the host
 * /tmp would be hidden wholesale and the secret-folder tests could not fail. /var/tmp is visible like a real home.
 */
export function worldBase(): string {
  for (const candidate of ['/var/tmp', os.tmpdir()]) {
    try {
      fs.accessSync(candidate, fs.constants.W_OK);
      if (!fs.realpathSync(candidate).startsWith('/tmp')) return candidate;
    } catch {
      // next
    }
  }
  return os.tmpdir();
}

/** A temp HOME with secrets (`.ssh/id_rsa`, our config dir), a project in it and a folder outside the project. */
export function makeWorld(): SandboxWorld {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(worldBase(), 'gh-sandbox-test-')));
  const home = path.join(root, 'home');
  const project = path.join(home, 'project');
  const outside = path.join(root, 'outside');
  const userConfigDir = path.join(home, '.config', 'gatehouse');
  for (const d of [project, outside, path.join(home, '.ssh'), userConfigDir, path.join(home, '.aws')])
    fs.mkdirSync(d, { recursive: true });
  fs.writeFileSync(path.join(home, '.ssh', 'id_rsa'), 'PRIVATE-KEY-MATERIAL\n');
  fs.writeFileSync(path.join(home, '.aws', 'credentials'), 'aws_secret_access_key=AWSSECRET\n');
  fs.writeFileSync(path.join(userConfigDir, 'trust.json'), '{"trusted":["/"]}\n');
  fs.writeFileSync(path.join(outside, 'readable.txt'), 'outside-content\n');
  return {
    root,
    home,
    project,
    outside,
    userConfigDir,
    config: (extra = {}) => ({
      projectRoot: project,
      additionalDirectories: [],
      userConfigDir,
      home,
      allowedDomains: [],
      baseEnv: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: home,
        LANG: 'C',
        ANTHROPIC_API_KEY: 'sk-ant-test-model-key',
        GITHUB_TOKEN: 'ghp_test',
      },
      ...extra,
    }),
    remove: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}

export interface RunResult {
  exitCode: number | null;
  output: string;
}

/** Runs a wrapped command asynchronously (the proxy lives in this process: never block the event loop). */
export function runWrapped(w: WrappedCommand, timeoutMs = 20_000): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(
      w.file,
      w.args,
      { env: w.env, cwd: w.cwd, timeout: timeoutMs, encoding: 'utf8' },
      (err, stdout, stderr) => {
        const exitCode = err === null ? 0 : typeof err.code === 'number' ? err.code : null;
        void (w.cleanup?.() ?? Promise.resolve()).then(() => resolve({ exitCode, output: `${stdout}${stderr}` }));
      },
    );
  });
}

export async function runIn(
  sandbox: CommandSandbox,
  command: string,
): Promise<RunResult & { violation: string | null }> {
  const r = await runWrapped(await sandbox.wrap(command));
  return { ...r, violation: sandbox.describeViolation(r.output, r.exitCode) };
}

/** Listens on 127.0.0.1 at a free port; resolves with the port. */
export async function listenOnLoopback(server: net.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

export function closeServer(server: net.Server): Promise<void> {
  return new Promise<void>((resolve) => server.close(() => resolve()));
}

/**
 * Real sandboxes of `world()` that may reach only `allowedDomains` (`withDomains`), all disposed by `disposeAll`
 * (call it after each test).
 */
export function domainSandboxes(world: () => SandboxWorld): {
  withDomains(allowedDomains: string[]): Promise<CommandSandbox>;
  disposeAll(): Promise<void>;
} {
  const sandboxes: CommandSandbox[] = [];
  return {
    async withDomains(allowedDomains) {
      const created = await createCommandSandbox(world().config({ allowedDomains }));
      if (created.kind !== 'sandbox') throw new Error(`sandbox unavailable: ${created.reason}`);
      sandboxes.push(created);
      return created;
    },
    async disposeAll() {
      for (const s of sandboxes.splice(0)) await s.dispose();
    },
  };
}
