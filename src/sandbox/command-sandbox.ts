/**
 * `createCommandSandbox`: bubblewrap around every `run_command`, set up once per worker (private /tmp, the
 * domain proxy) and checked with a real probe before it is trusted. Anything that prevents it working returns a
 * `SandboxUnavailable` with the reason, never a sandbox that silently does nothing.
 */
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import {
  bwrapArgs,
  PROXY_SOCKET_NAME,
  SANDBOX_PROXY_PORT,
  type BwrapPlan,
  type SandboxCommand,
  type SandboxNetwork,
} from './bwrap-args';
import { directCommand } from './direct-command';
import { DomainProxy } from './domain-proxy';
import { findOnPath, isExecutable } from './find-binary';
import { hiddenMaskTargets } from './hidden-paths';
import { holdGuards } from './placeholders';
import { makePrivateDir, removeOrphanedPrivateDirsOnce } from './private-dirs';
import { existingMaskTargets, protectedReadPaths } from './protected-paths';
import { sandboxHandle } from './sandbox-handle';
import { probe, probeError, PROBE_COMMAND, unavailable, writableRootsOf } from './sandbox-probe';
import { readOnlyBwrapArgs, readOnlyEnv, readOnlyProbeCommand, type ReadOnlyBwrapPlan } from './read-only-profile';
import { readOnlySeccompProgram, withSeccompFd } from './read-only-seccomp';
import { sandboxEnv } from './sandbox-env';
import { createSeatbeltSandbox } from './seatbelt-sandbox';
import { runtimeDirsOf, socketDoors } from './socket-doors';
import type { CommandSandbox, CommandSandboxConfig, SandboxUnavailable, WrappedCommand } from './types';

type Located = { ok: true; bwrap: string; socat: string | null } | { ok: false; reason: string };

async function locateBinaries(config: CommandSandboxConfig): Promise<Located> {
  const bwrap = config.bwrapPath ?? (await findOnPath('bwrap'));
  if (bwrap === null)
    return { ok: false, reason: 'bubblewrap (bwrap) was not found on PATH: install the "bubblewrap" package' };
  if (!(await isExecutable(bwrap))) return { ok: false, reason: `bubblewrap was not found at ${bwrap}` };
  if (config.allowedDomains.length === 0) return { ok: true, bwrap, socat: null };
  const socat = config.socatPath ?? (await findOnPath('socat'));
  if (socat === null || !(await isExecutable(socat))) {
    return {
      ok: false,
      reason: 'socat was not found: it is needed to reach the allowed domains from the sandbox (install "socat")',
    };
  }
  return { ok: true, bwrap, socat };
}

/** Why Windows has no sandbox: said in the status bar, the banner, `gatehouse doctor` and every command's approval. */
export const WINDOWS_NO_SANDBOX = 'Windows has no command sandbox in Gatehouse: every command asks';

export async function createCommandSandbox(
  config: CommandSandboxConfig,
  platform: NodeJS.Platform = process.platform,
): Promise<CommandSandbox | SandboxUnavailable> {
  if (platform === 'win32') return unavailable(WINDOWS_NO_SANDBOX);
  // Folders of sandboxes whose process was killed before it could remove them (see private-dirs.ts).
  void removeOrphanedPrivateDirsOnce();
  if (platform === 'darwin') return createSeatbeltSandbox(config);
  if (platform !== 'linux')
    return unavailable(`no command sandbox on ${platform} (bubblewrap on Linux, Seatbelt on macOS)`);
  const located = await locateBinaries(config);
  if (!located.ok) return unavailable(located.reason);
  const roots = await writableRootsOf(config);
  if (roots === null) return unavailable(`the project folder does not exist: ${config.projectRoot}`);
  const { projectRoot, writableRoots } = roots;

  const privateTmp = await makePrivateDir('tmp');
  const dirsToRemove = [privateTmp];
  let proxy: DomainProxy | null = null;
  let network: SandboxNetwork = { kind: 'none' };
  const teardown = async (): Promise<void> => {
    await proxy?.close();
    for (const d of dirsToRemove) await fsp.rm(d, { recursive: true, force: true });
  };
  try {
    if (located.socat !== null) {
      const socketDir = await makePrivateDir('net');
      dirsToRemove.push(socketDir);
      proxy = await DomainProxy.listen(path.join(socketDir, PROXY_SOCKET_NAME), config.allowedDomains);
      network = { kind: 'proxy', hostSocketDir: socketDir, socatPath: located.socat };
    }
  } catch (err) {
    await teardown();
    return unavailable(
      `the sandbox network proxy could not start: ${err instanceof Error ? err.message : String(err)}`,
    );
  }

  const configuredProtected = protectedReadPaths(config.home, config.userConfigDir);
  const baseEnv = config.baseEnv ?? process.env;
  const allowList = config.envAllowList ?? [];
  const hidden = config.hiddenPaths ?? [];
  const runtimeDirs = runtimeDirsOf(config);
  const allowSockets = config.allowUnixSockets ?? [];
  let lastWrapAt = 0;
  let guarded: { paths: string[]; pins: string[] } = { paths: [], pins: [] };
  // The secrets' folders that existed at the last wrap (named in violation messages).
  let maskedSecrets: string[] = [];

  // Recomputed for every command: masks and guards follow the folders as they are now.
  const wrap = async (command: SandboxCommand): Promise<WrappedCommand> => {
    lastWrapAt = Date.now();
    // Throws when a root cannot be guarded: the command does not run.
    const guards = await holdGuards(writableRoots, config.home);
    try {
      const secrets = await existingMaskTargets(configuredProtected);
      const masked = [...secrets, ...(await hiddenMaskTargets(hidden, writableRoots, secrets))];
      // Sockets of services with more authority than the sandbox: masked (socket-doors.ts), as they are now.
      const doors = await socketDoors({
        home: config.home,
        writableRoots,
        runtimeDirs,
        masked,
        allowUnixSockets: allowSockets,
        ownFolders: dirsToRemove,
      });
      const plan: BwrapPlan = {
        bwrapPath: located.bwrap,
        projectRoot,
        writableRoots,
        privateTmp,
        masks: [...masked, ...doors.masks],
        openSockets: doors.open,
        guards,
        network,
      };
      guarded = { paths: guards.paths, pins: guards.pins };
      maskedSecrets = [...secrets, ...doors.masks.filter((m) => m.isDirectory)].map((m) => m.path);
      const env = sandboxEnv(baseEnv, allowList, proxy === null ? null : SANDBOX_PROXY_PORT, '/tmp', {
        opened: [...allowSockets, ...doors.opened],
        ...(config.openSocketEnv ? { env: config.openSocketEnv } : {}),
      });
      return { file: plan.bwrapPath, args: bwrapArgs(plan, command), env, cwd: projectRoot, cleanup: guards.release };
    } catch (err) {
      await guards.release();
      throw err;
    }
  };

  // The read-only profile: no writable root, so no guard to hold; the masks as the workspace profile has them, and
  // every door masked with none opened (its seccomp filter refuses unix sockets where there is one; the masks hold
  // where there is none).
  const seccomp = readOnlySeccompProgram();
  const wrapReadOnly = async (command: string): Promise<WrappedCommand> => {
    const secrets = await existingMaskTargets(configuredProtected);
    const masked = [...secrets, ...(await hiddenMaskTargets(hidden, writableRoots, secrets))];
    const doors = await socketDoors({
      home: config.home,
      writableRoots,
      runtimeDirs,
      masked,
      allowUnixSockets: [],
      ownFolders: dirsToRemove,
    });
    maskedSecrets = [...secrets, ...doors.masks.filter((m) => m.isDirectory)].map((m) => m.path);
    const plan: ReadOnlyBwrapPlan = {
      projectRoot,
      roots: writableRoots,
      masks: [...masked, ...doors.masks],
      seccomp: seccomp !== null,
    };
    const args = readOnlyBwrapArgs(plan, command);
    const argv = seccomp === null ? { file: located.bwrap, args } : withSeccompFd(located.bwrap, args, seccomp);
    return { ...argv, env: readOnlyEnv(baseEnv, allowList), cwd: projectRoot };
  };

  // Both profiles are proved before either is used: never a read-only profile that silently is not.
  const probed = await Promise.all([
    wrap(PROBE_COMMAND).then(probe, probeError), // throws for a root that cannot be guarded
    wrapReadOnly(readOnlyProbeCommand(seccomp !== null)).then(probe, probeError),
  ]);
  const failed = probed.find((r) => !r.ok);
  if (failed !== undefined) {
    await teardown();
    const which = failed === probed[1] ? ' (read-only profile)' : '';
    return unavailable(`bubblewrap does not work here${which}: ${failed.detail}`);
  }

  return sandboxHandle({
    mechanism: 'bubblewrap',
    wrap,
    wrapReadOnly,
    wrapUnsandboxed: (command) => directCommand(command, projectRoot, allowList, baseEnv),
    violationContext: (profile) => {
      const common = {
        projectRoot,
        protectedPaths: [...configuredProtected, ...maskedSecrets],
        home: config.home,
        hidden,
      };
      if (profile === 'read-only')
        return { ...common, writableRoots: [], allowedDomains: [], denials: [], readOnly: true };
      return {
        ...common,
        writableRoots,
        allowedDomains: config.allowedDomains,
        denials: proxy?.recentDenials(lastWrapAt - 1_000) ?? [],
        guarded: guarded.paths,
        pinned: guarded.pins,
      };
    },
    teardown,
  });
}
