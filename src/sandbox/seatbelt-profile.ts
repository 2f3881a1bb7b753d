/**
 * The macOS Seatbelt profile (SBPL, for `sandbox-exec -p`) with bubblewrap's guarantees: writes only in the
 * writable roots and the private temp dir; the secrets' folders unreadable (and unwritable) even inside a root;
 * the guarded paths of write-guards.ts (`.gatehouse/`, `.claude/`, git hooks and config) unwritable whether they
 * exist or not, under any spelling of their case (macOS volumes usually ignore case: `.CLAUDE/` would be read as
 * `.claude/`), and the folders leading to them impossible to rename or remove; no network except the local proxy port;
 * no unix socket but those the person opened (a socket's service may act with more authority than the sandbox: the
 * decision helper, agents, container engines; see socket-doors.ts for bubblewrap's masks). In SBPL the last matching rule
 * wins, so the denials come after the allowances they narrow. Paths become SBPL string literals: a backslash and a
 * double quote are escaped, and a control character (newline, NUL...) is refused outright rather than trusted to
 * an escape, so no path can end its string and add a rule of its own.
 */

export interface SeatbeltPlan {
  /** Real paths: the project root first, then the additional directories. */
  writableRoots: string[];
  /** Real path of the command's private temp dir (TMPDIR). */
  privateTmp: string;
  /** Paths never readable nor writable (both their configured and their real form). */
  protectedPaths: string[];
  /**
   * What a `Read` deny rule denies (real paths): neither readable nor writable (a rename would carry a file out of
   * its name's reach). A folder with everything in it, a file by its exact path.
   */
  hiddenPaths?: readonly { path: string; isDirectory: boolean }[];
  /** Folders that must not be renamed or removed (the way to a guarded path). */
  pins: string[];
  /** Guarded paths (as named and as they land, existing or not): nothing at or below them is writable. */
  readOnly: string[];
  /** The domain proxy's loopback port, or null for no network at all. */
  proxyPort: number | null;
  /** `sandbox.allowUnixSockets` (as configured and as they really are): the only unix sockets a command may reach. */
  openSockets?: readonly string[];
}

export class SeatbeltProfileError extends Error {}

/** `s` as an SBPL string literal. Throws for characters that have no place in a path we can vouch for. */
export function sbplString(s: string): string {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(s))
    throw new SeatbeltProfileError(
      `a path contains a control character, which the sandbox profile cannot hold safely: ${JSON.stringify(s)}`,
    );
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

const subpaths = (paths: readonly string[]): string => paths.map((p) => `(subpath ${sbplString(p)})`).join(' ');

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** `s` as a regex matching it in any case (letters become `[aA]`). */
const anyCase = (s: string): string =>
  [...s]
    .map((c) => (c.toLowerCase() !== c.toUpperCase() ? `[${c.toLowerCase()}${c.toUpperCase()}]` : escapeRegex(c)))
    .join('');

/**
 * Regex filters for the part of each path below the writable root holding it, in any case (the root as it is):
 * `subtree` also matches everything below. Paths outside every root need none (nothing is writable there).
 */
function anyCaseFilters(paths: readonly string[], roots: readonly string[], subtree: boolean): string[] {
  const out: string[] = [];
  for (const p of paths) {
    const root = roots.filter((r) => p.startsWith(`${r}/`)).sort((a, b) => b.length - a.length)[0];
    if (root === undefined) continue;
    out.push(
      `(regex ${sbplString(`^${escapeRegex(root)}/${anyCase(p.slice(root.length + 1))}${subtree ? '(/.*)?' : ''}$`)})`,
    );
  }
  return out;
}
const literals = (paths: readonly string[]): string => paths.map((p) => `(literal ${sbplString(p)})`).join(' ');

/** Mach services a shell and common tools need, and nothing that holds secrets (no keychain, no pasteboard). */
const MACH_SERVICES = [
  'com.apple.system.logger',
  'com.apple.system.notification_center',
  'com.apple.system.opendirectoryd.libinfo',
  'com.apple.system.opendirectoryd.membership',
  'com.apple.bsd.dirhelper',
  'com.apple.trustd.agent',
  'com.apple.coreservices.launchservicesd',
];

const DEVICE_WRITES = [
  '(literal "/dev/null")',
  '(literal "/dev/zero")',
  '(literal "/dev/tty")',
  '(literal "/dev/stdout")',
  '(literal "/dev/stderr")',
  '(literal "/dev/dtracehelper")',
  '(regex #"^/dev/ttys[0-9]+$")',
  '(regex #"^/dev/fd/[0-9]+$")',
];

export function seatbeltProfile(plan: SeatbeltPlan): string {
  const lines = [
    '(version 1)',
    '(deny default)',
    '(allow process-exec process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow process-info* (target same-sandbox))',
    '(allow sysctl-read)',
    '(allow user-preference-read)',
    '(allow ipc-posix-shm ipc-posix-sem)',
    `(allow mach-lookup ${MACH_SERVICES.map((n) => `(global-name ${sbplString(n)})`).join(' ')})`,
    '(allow file-ioctl (literal "/dev/tty") (regex #"^/dev/ttys[0-9]+$"))',
    '(allow file-read*)',
    `(allow file-write* ${subpaths([...plan.writableRoots, plan.privateTmp])} ${DEVICE_WRITES.join(' ')})`,
  ];
  if (plan.readOnly.length > 0)
    lines.push(
      `(deny file-write* ${[subpaths(plan.readOnly), ...anyCaseFilters(plan.readOnly, plan.writableRoots, true)].join(' ')})`,
    );
  if (plan.pins.length > 0)
    lines.push(
      `(deny file-write* ${[literals(plan.pins), ...anyCaseFilters(plan.pins, plan.writableRoots, false)].join(' ')})`,
    );
  if (plan.protectedPaths.length > 0) {
    lines.push(
      `(deny file-read* ${subpaths(plan.protectedPaths)})`,
      `(deny file-write* ${subpaths(plan.protectedPaths)})`,
    );
  }
  const hidden = (plan.hiddenPaths ?? []).map((h) =>
    h.isDirectory ? `(subpath ${sbplString(h.path)})` : `(literal ${sbplString(h.path)})`,
  );
  if (hidden.length > 0) lines.push(`(deny file-read* ${hidden.join(' ')})`, `(deny file-write* ${hidden.join(' ')})`);
  if (plan.proxyPort !== null) {
    if (!Number.isInteger(plan.proxyPort) || plan.proxyPort < 1 || plan.proxyPort > 65535)
      throw new SeatbeltProfileError(`bad proxy port ${plan.proxyPort}`);
    lines.push(`(allow network-outbound (remote ip "localhost:${plan.proxyPort}"))`);
  }
  // Denied by default already; said outright so that no later allowance can open one, then the opened ones.
  lines.push('(deny network-outbound (remote unix-socket))');
  const open = [...new Set(plan.openSockets ?? [])];
  if (open.length > 0)
    lines.push(
      `(allow network-outbound ${open.map((p) => `(remote unix-socket (path-literal ${sbplString(p)}))`).join(' ')})`,
    );
  return `${lines.join('\n')}\n`;
}
