/**
 * The read-only profile: the sandbox for a command that runs without a person only because the engine judged it
 * read-only. The analysis can be wrong (a config file that makes a reader run a pre-processor, a login shell that
 * reads a planted profile), so what runs under this verdict may read what a command may read and nothing more: the
 * project, the home and every other folder read-only (no writable root at all), no network (its own empty network
 * namespace: no proxy, no bridge), no capabilities, and a private temp folder of its own that ends with the command
 * (never the workspace profile's /tmp, which lives as long as the worker: nothing planted there can wait for a later
 * command). The secrets' folders and what `Read` deny rules deny are masked exactly as in the workspace profile.
 * Programs that like to write a cache degrade quietly (`GIT_OPTIONAL_LOCKS=0`: git leaves its index alone), never
 * by widening the sandbox.
 */
import type { MaskTarget } from './protected-paths';
import { SECCOMP_FD } from './read-only-seccomp';
import { sandboxEnv } from './sandbox-env';
import type { SeatbeltPlan } from './seatbelt-profile';

export type SandboxProfile = 'read-only' | 'workspace';

export interface ReadOnlyBwrapPlan {
  projectRoot: string;
  /** The project root and the additional directories: shown at their own path (read-only), even under the host /tmp. */
  roots: string[];
  masks: MaskTarget[];
  /** The seccomp filter of read-only-seccomp.ts is handed over on SECCOMP_FD. */
  seccomp: boolean;
}

/** argv after the bwrap binary for one command in the read-only profile (pure: easy to read, easy to test). */
export function readOnlyBwrapArgs(plan: ReadOnlyBwrapPlan, command: string): string[] {
  const args = [
    '--die-with-parent',
    // Every namespace bubblewrap can make: the network one leaves only an unconfigured loopback.
    '--unshare-all',
    // bubblewrap run by root keeps root's capabilities (a command could unmount a mask or remount a bind): none here.
    '--cap-drop',
    'ALL',
    ...(plan.seccomp ? ['--seccomp', String(SECCOMP_FD)] : []),
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    // A fresh tmpfs: private to this one command, gone when it ends.
    '--tmpfs',
    '/tmp',
  ];
  for (const root of plan.roots) args.push('--ro-bind', root, root);
  for (const m of plan.masks) {
    if (m.isDirectory) args.push('--tmpfs', m.path, '--remount-ro', m.path);
    else args.push('--ro-bind', '/dev/null', m.path);
  }
  args.push('--chdir', plan.projectRoot, '--', 'bash', '-c', command);
  return args;
}

/** The read-only profile's environment: the workspace profile's (scrubbed, no proxy) and git's optional locks off. */
export function readOnlyEnv(
  base: NodeJS.ProcessEnv,
  allowList: readonly string[],
  tmpDir = '/tmp',
): Record<string, string> {
  const env = sandboxEnv(base, allowList, null, tmpDir);
  // `git status` and `git diff` refresh the index when they may; with optional locks off they only read it.
  env.GIT_OPTIONAL_LOCKS = '0';
  env.GATEHOUSE_SANDBOX_PROFILE = 'read-only';
  return env;
}

/**
 * Proves the profile is what it says before any command relies on it: the working folder (the project) is not
 * writable, (Linux) the network namespace has no interface but the loopback and, with `seccomp`, the filter is on.
 * A problem goes to stderr (the probe's reason), so the marker alone on stdout means all held.
 */
export function readOnlyProbeCommand(seccomp: boolean): string {
  return [
    '[ -w . ] && echo "the read-only profile left the project writable" >&2 && exit 1',
    // Linux: its own network namespace (Seatbelt has no /proc: its profile text is what denies the network).
    '[ -r /proc/net/dev ] && while IFS= read -r l; do case $l in *"|"*|*" lo:"*) ;; *) echo "the read-only profile has a network interface: ${l%%:*}" >&2; exit 1;; esac; done < /proc/net/dev',
    ...(seccomp
      ? [
          'while IFS= read -r l; do case $l in Seccomp:*2) f=1;; esac; done < /proc/self/status',
          '[ "$f" = 1 ] || { echo "the read-only profile has no seccomp filter" >&2; exit 1; }',
        ]
      : []),
    'echo gatehouse-sandbox-ok',
  ].join('\n');
}

/**
 * The Seatbelt plan of the read-only profile, from the workspace profile's plan of the same moment: no writable
 * root, no guard needed (nothing around them is writable), no network, and `tmpDir` (a folder made for this one
 * command) as the only writable place.
 */
export function readOnlySeatbeltPlan(workspace: SeatbeltPlan, tmpDir: string): SeatbeltPlan {
  return {
    writableRoots: [],
    privateTmp: tmpDir,
    protectedPaths: workspace.protectedPaths,
    ...(workspace.hiddenPaths ? { hiddenPaths: workspace.hiddenPaths } : {}),
    pins: [],
    readOnly: [],
    proxyPort: null,
  };
}
