/** The bubblewrap command line for one sandboxed command (pure: easy to read, easy to test). */
import type { MaskTarget } from './protected-paths';

/** Port the in-sandbox bridge listens on (loopback of the command's own network namespace). */
export const SANDBOX_PROXY_PORT = 3128;
/** Where the host's proxy socket directory appears inside the sandbox. */
const SANDBOX_PROXY_DIR = '/tmp/.gatehouse-net';
export const PROXY_SOCKET_NAME = 'proxy.sock';

/** What stays read-only inside the writable roots (write-guards.ts), as mounts. */
interface BwrapGuards {
  /** Folders bound onto themselves (shallowest first), so they cannot be renamed or removed. */
  pins: string[];
  /** Existing files and folders bound read-only onto themselves. */
  readOnly: string[];
  /** Placeholder folders (placeholders.ts) that get an empty read-only tmpfs: nothing can be made at or below them. */
  placeholders: string[];
}

/**
 * What runs inside: a command line (`bash -c`, as run_command gives it), or a program and its arguments, started
 * without any shell (an MCP server's `command` and `args`): no shell start-up file can print into its output.
 */
export type SandboxCommand = string | { argv: readonly string[] };

export type SandboxNetwork = { kind: 'none' } | { kind: 'proxy'; hostSocketDir: string; socatPath: string };

export interface BwrapPlan {
  bwrapPath: string;
  projectRoot: string;
  /** Project root first, then additional directories; each bound read-write at the same path. */
  writableRoots: string[];
  /** Host directory that becomes the command's `/tmp`. */
  privateTmp: string;
  masks: MaskTarget[];
  /** Sockets the person opened that a mask or the private /tmp would hide: bound back at their own path. */
  openSockets?: string[];
  guards: BwrapGuards;
  network: SandboxNetwork;
}

/**
 * Waits (builtins only, no fork per try) until socat listens on the bridge port, then runs the command. socat
 * forwards each loopback connection to the worker's proxy through the unix socket bound into the sandbox.
 */
function proxyBridgeScript(socatPath: string, argv: boolean): string {
  const hexPort = SANDBOX_PROXY_PORT.toString(16).toUpperCase().padStart(4, '0');
  return [
    `${shQuote(socatPath)} TCP-LISTEN:${SANDBOX_PROXY_PORT},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${SANDBOX_PROXY_DIR}/${PROXY_SOCKET_NAME} </dev/null >/dev/null 2>&1 &`,
    'for _ in {1..400}; do',
    `  while IFS= read -r l; do [[ $l == *":${hexPort} 00000000:0000 0A"* ]] && break 2; done < /proc/net/tcp`,
    '  sleep 0.005',
    'done',
    'unset l',
    argv ? 'exec "$@"' : 'exec bash -c "$1"',
  ].join('\n');
}

export function shQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** argv after the bwrap binary. */
export function bwrapArgs(plan: BwrapPlan, command: SandboxCommand): string[] {
  const args = [
    '--die-with-parent',
    // user (when possible), pid, ipc, uts, cgroup and net namespaces: no network but the proxy bridge, and no view
    // of host processes (a host /proc/<pid>/root would be a way out of the mount namespace).
    '--unshare-all',
    // bubblewrap run by root keeps root's capabilities inside: a command could unmount a mask or a guard.
    '--cap-drop',
    'ALL',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--bind',
    plan.privateTmp,
    '/tmp',
  ];
  for (const root of plan.writableRoots) args.push('--bind', root, root);
  for (const pin of plan.guards.pins) args.push('--bind', pin, pin);
  for (const ro of plan.guards.readOnly) args.push('--ro-bind', ro, ro);
  for (const p of plan.guards.placeholders) args.push('--tmpfs', p, '--remount-ro', p);
  // Masks come after the writable binds: a secret folder inside the project stays hidden. An opened socket inside a
  // masked folder is bound into its tmpfs before that is made read-only (the innermost folder holding it).
  const open = plan.openSockets ?? [];
  const folders = plan.masks.filter((m) => m.isDirectory).map((m) => m.path);
  const holder = (s: string): string | undefined =>
    folders.filter((f) => s.startsWith(`${f}/`)).sort((a, b) => b.length - a.length)[0];
  for (const m of plan.masks) {
    if (!m.isDirectory) {
      args.push('--ro-bind', '/dev/null', m.path); // a file or a socket: /dev/null in its place
      continue;
    }
    args.push('--tmpfs', m.path);
    for (const s of open) if (holder(s) === m.path) args.push('--bind', s, s);
    args.push('--remount-ro', m.path);
  }
  for (const s of open) if (holder(s) === undefined) args.push('--bind', s, s);
  if (plan.network.kind === 'proxy') args.push('--ro-bind', plan.network.hostSocketDir, SANDBOX_PROXY_DIR);
  args.push('--chdir', plan.projectRoot, '--');
  if (typeof command !== 'string') {
    // The bridge's shell reads no start-up file (its stdin may be a socket, which makes bash read ~/.bashrc).
    if (plan.network.kind === 'proxy')
      args.push(
        'bash',
        '--noprofile',
        '--norc',
        '-c',
        proxyBridgeScript(plan.network.socatPath, true),
        'gatehouse-sandbox',
        ...command.argv,
      );
    else args.push(...command.argv);
    return args;
  }
  if (plan.network.kind === 'proxy')
    args.push('bash', '-c', proxyBridgeScript(plan.network.socatPath, false), 'gatehouse-sandbox', command);
  else args.push('bash', '-c', command);
  return args;
}
