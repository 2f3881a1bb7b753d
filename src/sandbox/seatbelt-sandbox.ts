/**
 * The command sandbox on macOS: `sandbox-exec -p PROFILE bash -c COMMAND` with the profile of seatbelt-profile.ts,
 * a private temp dir (TMPDIR) and, when a domain is allowed, the domain proxy on a loopback port (the only network
 * the profile lets through). Same interface and the same fail-safe rule as bubblewrap: probed once, and anything
 * that keeps it from working is a `SandboxUnavailable` with the reason.
 */
import * as fsp from 'node:fs/promises';
import { helperFolderCandidates } from '../shared/node/user-folders';
import { directCommand } from './direct-command';
import { DomainProxy } from './domain-proxy';
import { isExecutable } from './find-binary';
import { makePrivateDir } from './private-dirs';
import { existingMaskTargets, protectedReadPaths } from './protected-paths';
import { sandboxHandle } from './sandbox-handle';
import { probe, probeError, PROBE_COMMAND, unavailable, writableRootsOf } from './sandbox-probe';
import { readOnlyEnv, readOnlyProbeCommand, readOnlySeatbeltPlan } from './read-only-profile';
import { sandboxEnv } from './sandbox-env';
import { seatbeltProfile, type SeatbeltPlan } from './seatbelt-profile';
import { runtimeDirsOf } from './socket-doors';
import { writableRootGuards } from './write-guards';
import type { SandboxCommand } from './bwrap-args';
import type { CommandSandbox, CommandSandboxConfig, SandboxUnavailable, WrappedCommand } from './types';

const SANDBOX_EXEC = '/usr/bin/sandbox-exec';

/** The argv for one command under Seatbelt (pure: the profile is rebuilt per command, like bubblewrap's masks). */
export function seatbeltCommand(
  sandboxExec: string,
  plan: SeatbeltPlan,
  command: SandboxCommand,
  env: Record<string, string>,
  cwd: string,
): WrappedCommand {
  const inside = typeof command === 'string' ? ['bash', '-c', command] : [...command.argv];
  return { file: sandboxExec, args: ['-p', seatbeltProfile(plan), ...inside], env, cwd };
}

export async function createSeatbeltSandbox(
  config: CommandSandboxConfig,
): Promise<CommandSandbox | SandboxUnavailable> {
  const sandboxExec = config.sandboxExecPath ?? SANDBOX_EXEC;
  if (!(await isExecutable(sandboxExec))) return unavailable(`sandbox-exec was not found at ${sandboxExec}`);
  const roots = await writableRootsOf(config);
  if (roots === null) return unavailable(`the project folder does not exist: ${config.projectRoot}`);
  const { projectRoot, writableRoots } = roots;
  const privateTmp = await fsp.realpath(await makePrivateDir('tmp'));
  let proxy: DomainProxy | null = null;
  const teardown = async (): Promise<void> => {
    await proxy?.close();
    await fsp.rm(privateTmp, { recursive: true, force: true });
  };
  try {
    if (config.allowedDomains.length > 0)
      proxy = await DomainProxy.listen({ host: '127.0.0.1', port: 0 }, config.allowedDomains);
  } catch (err) {
    await teardown();
    return unavailable(
      `the sandbox network proxy could not start: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const baseEnv = config.baseEnv ?? process.env;
  const uid = process.getuid?.();
  const runtimeDirs = runtimeDirsOf(config);
  // The decision helper's folder too: its secret is never readable from a command (its socket is denied below).
  const configuredProtected = [
    ...protectedReadPaths(config.home, config.userConfigDir),
    ...(uid === undefined ? [] : helperFolderCandidates(runtimeDirs, uid)),
  ];
  // The sockets the person opened, as configured and as they really are (macOS's /tmp is /private/tmp).
  const allowSockets = config.allowUnixSockets ?? [];
  const openSockets = [
    ...new Set([...allowSockets, ...(await Promise.all(allowSockets.map((p) => fsp.realpath(p).catch(() => p))))]),
  ];
  const protectedNow = async (): Promise<string[]> => [
    ...new Set([...configuredProtected, ...(await existingMaskTargets(configuredProtected)).map((m) => m.path)]),
  ];
  // What was protected at the last wrap (named in violation messages).
  let lastProtected = configuredProtected;
  const allowList = config.envAllowList ?? [];
  const hidden = config.hiddenPaths ?? [];
  const env = sandboxEnv(baseEnv, allowList, proxy?.port ?? null, privateTmp, {
    opened: openSockets,
    ...(config.openSocketEnv ? { env: config.openSocketEnv } : {}),
  });
  let lastWrapAt = 0;
  let guarded: { paths: string[]; pins: string[] } = { paths: [], pins: [] };
  const wrap = async (command: SandboxCommand): Promise<WrappedCommand> => {
    lastWrapAt = Date.now();
    // Seatbelt denies by path: missing names and symbolic links need no mount point, so every root can be guarded.
    const guards = await writableRootGuards(writableRoots, config.home);
    guarded = { paths: guards.paths, pins: guards.pins };
    lastProtected = await protectedNow();
    const plan: SeatbeltPlan = {
      writableRoots,
      privateTmp,
      protectedPaths: lastProtected,
      hiddenPaths: await existingMaskTargets(hidden.map((h) => h.path)),
      pins: guards.pins,
      readOnly: guards.paths,
      proxyPort: proxy?.port ?? null,
      openSockets,
    };
    return seatbeltCommand(sandboxExec, plan, command, env, projectRoot);
  };

  let lastReadOnlyTmp = privateTmp;
  // The read-only profile: a temp folder made for this one command (removed after it) is all it may write.
  const wrapReadOnly = async (command: string): Promise<WrappedCommand> => {
    lastProtected = await protectedNow();
    const tmpDir = await fsp.realpath(await makePrivateDir('tmp'));
    lastReadOnlyTmp = tmpDir;
    const workspace: SeatbeltPlan = {
      writableRoots,
      privateTmp,
      protectedPaths: lastProtected,
      hiddenPaths: await existingMaskTargets(hidden.map((h) => h.path)),
      pins: [],
      readOnly: [],
      proxyPort: null,
    };
    const cleanup = (): Promise<void> => fsp.rm(tmpDir, { recursive: true, force: true });
    try {
      const env = readOnlyEnv(baseEnv, allowList, tmpDir);
      return {
        ...seatbeltCommand(sandboxExec, readOnlySeatbeltPlan(workspace, tmpDir), command, env, projectRoot),
        cleanup,
      };
    } catch (err) {
      await cleanup();
      throw err;
    }
  };

  // Both profiles are proved before either is used: never a read-only profile that silently is not.
  const probed = await Promise.all([
    wrap(PROBE_COMMAND).then(probe, probeError), // throws for a path the profile cannot hold
    wrapReadOnly(readOnlyProbeCommand(false)).then(probe, probeError),
  ]);
  const failed = probed.find((r) => !r.ok);
  if (failed !== undefined) {
    await teardown();
    const which = failed === probed[1] ? ' (read-only profile)' : '';
    return unavailable(`sandbox-exec does not work here${which}: ${failed.detail}`);
  }
  return sandboxHandle({
    mechanism: 'seatbelt',
    wrap,
    wrapReadOnly,
    wrapUnsandboxed: (command) => directCommand(command, projectRoot, allowList, baseEnv),
    violationContext: (profile) => {
      const common = {
        projectRoot,
        protectedPaths: lastProtected,
        home: config.home,
        mechanism: 'seatbelt',
        hidden,
      } as const;
      if (profile === 'read-only')
        return {
          ...common,
          writableRoots: [],
          allowedDomains: [],
          denials: [],
          tmpDir: lastReadOnlyTmp,
          readOnly: true,
        };
      return {
        ...common,
        writableRoots,
        allowedDomains: config.allowedDomains,
        denials: proxy?.recentDenials(lastWrapAt - 1_000) ?? [],
        tmpDir: privateTmp,
        guarded: guarded.paths,
        pinned: guarded.pins,
      };
    },
    teardown,
  });
}
