/**
 * `createCommandSandbox`: bubblewrap around every `run_command`, set up once per worker (private /tmp, the
 * domain proxy) and checked with a real probe before it is trusted. Anything that prevents it working returns a
 * `SandboxUnavailable` with the reason, never a sandbox that silently does nothing.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { bwrapArgs, PROXY_SOCKET_NAME, type BwrapPlan, type SandboxNetwork } from './bwrap-args';
import { directCommand } from './direct-command';
import { DomainProxy } from './domain-proxy';
import { findOnPath, isExecutable } from './find-binary';
import { existingMaskTargets, protectedReadPaths, writableRootGuards } from './protected-paths';
import { sandboxEnv } from './sandbox-env';
import type { CommandSandbox, CommandSandboxConfig, SandboxUnavailable, WrappedCommand } from './types';
import { describeViolation } from './violation';

const PROBE_TIMEOUT_MS = 10_000;

function unavailable(reason: string): SandboxUnavailable {
  return { kind: 'unavailable', reason };
}

function realDir(p: string): string | null {
  try {
    const real = fs.realpathSync(p);
    return fs.statSync(real).isDirectory() ? real : null;
  } catch {
    return null;
  }
}

function probe(file: string, args: string[], env: Record<string, string>, cwd: string): Promise<{ ok: boolean; detail: string }> {
  return new Promise((resolve) => {
    // stdin from /dev/null, not a socket: bash sources ~/.bashrc when its stdin is a socket and SHLVL is unset.
    const child = spawn(file, args, { env, cwd, timeout: PROBE_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('error', (err) => resolve({ ok: false, detail: err.message }));
    child.on('close', (code, signal) => {
      if (code === 0 && stdout.trim() === 'gatehouse-sandbox-ok') resolve({ ok: true, detail: '' });
      else resolve({ ok: false, detail: (stderr.trim() || `unexpected probe result (exit ${String(code ?? signal)})`).split('\n')[0] ?? '' });
    });
  });
}

type Located = { ok: true; bwrap: string; socat: string | null } | { ok: false; reason: string };

function locateBinaries(config: CommandSandboxConfig): Located {
  const bwrap = config.bwrapPath ?? findOnPath('bwrap');
  if (bwrap === null) return { ok: false, reason: 'bubblewrap (bwrap) was not found on PATH: install the "bubblewrap" package' };
  if (!isExecutable(bwrap)) return { ok: false, reason: `bubblewrap was not found at ${bwrap}` };
  if (config.allowedDomains.length === 0) return { ok: true, bwrap, socat: null };
  const socat = config.socatPath ?? findOnPath('socat');
  if (socat === null || !isExecutable(socat)) {
    return { ok: false, reason: 'socat was not found: it is needed to reach the allowed domains from the sandbox (install "socat")' };
  }
  return { ok: true, bwrap, socat };
}

export async function createCommandSandbox(config: CommandSandboxConfig): Promise<CommandSandbox | SandboxUnavailable> {
  if (process.platform !== 'linux') {
    return unavailable(`no command sandbox on ${process.platform} yet (bubblewrap on Linux only; Seatbelt on macOS is not implemented)`);
  }
  const located = locateBinaries(config);
  if (!located.ok) return unavailable(located.reason);
  const projectRoot = realDir(config.projectRoot);
  if (projectRoot === null) return unavailable(`the project folder does not exist: ${config.projectRoot}`);
  const extra = config.additionalDirectories.map(realDir).filter((d): d is string => d !== null);
  const writableRoots = [...new Set([projectRoot, ...extra])];

  const privateTmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-sandbox-tmp-'));
  const dirsToRemove = [privateTmp];
  let proxy: DomainProxy | null = null;
  let network: SandboxNetwork = { kind: 'none' };
  const teardown = async (): Promise<void> => {
    await proxy?.close();
    for (const d of dirsToRemove) fs.rmSync(d, { recursive: true, force: true });
  };
  try {
    if (located.socat !== null) {
      const socketDir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-sandbox-net-'));
      dirsToRemove.push(socketDir);
      proxy = await DomainProxy.listen(path.join(socketDir, PROXY_SOCKET_NAME), config.allowedDomains);
      network = { kind: 'proxy', hostSocketDir: socketDir, socatPath: located.socat };
    }
  } catch (err) {
    await teardown();
    return unavailable(`the sandbox network proxy could not start: ${err instanceof Error ? err.message : String(err)}`);
  }

  const configuredProtected = protectedReadPaths(config.home, config.userConfigDir);
  const baseEnv = config.baseEnv ?? process.env;
  const allowList = config.envAllowList ?? [];
  const plan = (): BwrapPlan => ({
    bwrapPath: located.bwrap,
    projectRoot,
    writableRoots,
    privateTmp,
    masks: existingMaskTargets(configuredProtected),
    guards: writableRootGuards(writableRoots),
    network,
  });
  let lastWrapAt = 0;

  const wrap = (command: string): WrappedCommand => {
    lastWrapAt = Date.now();
    const p = plan();
    return { file: p.bwrapPath, args: bwrapArgs(p, command), env: sandboxEnv(baseEnv, allowList, proxy !== null), cwd: projectRoot };
  };

  const check = wrap('echo gatehouse-sandbox-ok');
  const result = await probe(check.file, check.args, check.env, check.cwd);
  if (!result.ok) {
    await teardown();
    return unavailable(`bubblewrap does not work here: ${result.detail}`);
  }

  let disposed = false;
  return {
    kind: 'sandbox',
    mechanism: 'bubblewrap',
    wrap: (command) => {
      if (disposed) throw new Error('the command sandbox was disposed');
      return wrap(command);
    },
    wrapUnsandboxed: (command) => directCommand(command, projectRoot, allowList, baseEnv),
    describeViolation: (output, exitCode) =>
      describeViolation(output, exitCode, {
        projectRoot,
        writableRoots,
        protectedPaths: [...configuredProtected, ...existingMaskTargets(configuredProtected).map((m) => m.path)],
        home: config.home,
        allowedDomains: config.allowedDomains,
        denials: proxy?.recentDenials(lastWrapAt - 1_000) ?? [],
      }),
    dispose: async () => {
      if (disposed) return;
      disposed = true;
      await teardown();
    },
  };
}
