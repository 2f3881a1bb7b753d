/**
 * The doors out of a bubblewrap sandbox: unix sockets of services that act with more authority than the sandbox
 * (the session and system buses, ssh and gpg agents, container engines, Wayland, systemd's user instance, keyrings,
 * databases that trust the caller's uid, Gatehouse's own decision helper). The sandbox sees the host's file system
 * read-only, and a read-only mount does not stop connect() on a socket in it, so every command's plan masks:
 *
 * - folders that hold such sockets, whole: the person's runtime folder ($XDG_RUNTIME_DIR) and every user's
 *   (/run/user), the system bus, the container and VM engines' folders, and the decision helper's folder wherever
 *   the sandbox would see it (made first when missing, so that a helper started later is hidden as well);
 * - such socket files outside them (docker.sock and its kin, agents some tools put in the home);
 * - every socket the host has bound by path right now (/proc/net/unix, whoever bound it), and every socket beside
 *   one: a server that binds a temporary name and renames it (as the helper does) is listed under the old name. A
 *   folder that holds nothing but sockets is masked whole (one mount instead of one per socket), and so is a private
 *   one (mode 0700) that holds one: services keep their secrets beside their sockets there.
 *
 * What the sandbox cannot see needs no mask: its /tmp is private (the host's X11, tmux and ssh-agent sockets there
 * are out of sight), /proc and /dev are its own, and its own network namespace leaves every abstract socket out of
 * reach. A folder holding the project, another writable root or the home is never masked whole (its sockets still
 * are, one by one). A socket the person opened (`sandbox.allowUnixSockets`) is never masked, and is bound back where
 * a mask or the private /tmp would hide it.
 */
import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { helperFolderCandidates } from '../shared/node/user-folders';
import { isInside } from '../shared/node/path-containment';
import { visibleUnderBwrap } from './hidden-paths';
import { boundSocketNames, type BoundSocketNames } from './proc-net-unix';
import type { MaskTarget } from './protected-paths';
import type { CommandSandboxConfig } from './types';

/** Folders of services whose sockets act as root or as the person: masked whole. */
const SYSTEM_DOOR_FOLDERS: readonly string[] = [
  '/run/user', // every runtime folder: session bus, agents, Wayland, systemd --user, keyring, pipewire
  '/run/dbus', // the system bus
  '/run/docker',
  '/run/podman',
  '/run/containerd',
  '/run/crio',
  '/run/buildkit',
  '/run/k3s',
  '/run/libvirt',
  '/run/incus',
  '/run/lxd',
  '/run/screen', // GNU screen's sessions: typing into the person's shells
  '/run/pcscd', // smart cards (hardware keys)
  '/run/nscd',
  '/run/cups',
  '/run/avahi-daemon',
];

/** Socket files of such services outside those folders (/var/run is usually a link to /run: both spellings). */
const SYSTEM_DOOR_FILES: readonly string[] = [
  '/run/docker.sock',
  '/var/run/docker.sock',
  '/run/snapd.socket',
  '/run/snapd-snap.socket',
  '/run/systemd/private',
  '/var/snap/lxd/common/lxd/unix.socket',
  '/var/lib/lxd/unix.socket',
  '/var/lib/incus/unix.socket',
];

/** In the home (relative): container engines' machines and password managers' agents (the secret folders aside). */
const HOME_DOORS: readonly string[] = [
  '.colima',
  '.lima',
  '.rd',
  '.orbstack',
  '.local/share/containers/podman/machine',
  '.1password',
  '.bitwarden-ssh-agent.sock',
  '.var/app/com.bitwarden.desktop/data/.bitwarden-ssh-agent.sock',
];

export interface SocketDoorSources {
  home: string;
  /** Real paths: the project first, then the additional directories. */
  writableRoots: readonly string[];
  /** The person's runtime folders ($XDG_RUNTIME_DIR as main and the worker know it): absolute paths. */
  runtimeDirs: readonly string[];
  /** What is masked already (the secrets' folders, the hidden paths): nothing is masked again inside them. */
  masked: readonly MaskTarget[];
  /** `sandbox.allowUnixSockets`: absolute paths of sockets the person opened. */
  allowUnixSockets: readonly string[];
  /** This sandbox's own folders (its private /tmp, its proxy's socket folder): what is in them is its own. */
  ownFolders?: readonly string[];
  /** Injectable for tests. */
  uid?: number | undefined;
  tmpDir?: string;
  bound?: BoundSocketNames;
}

export interface SocketDoors {
  /** Masks to add to the plan: folders (an empty read-only tmpfs) and sockets (/dev/null in their place). */
  masks: MaskTarget[];
  /** Opened sockets (real paths) to bind back at their own path: a mask or the private /tmp would hide them. */
  open: string[];
  /** Opened sockets that exist (real paths), whether they needed binding or not. */
  opened: string[];
}

/** The person's runtime folders a configuration names: main's $XDG_RUNTIME_DIR, and the commands' own. */
export function runtimeDirsOf(config: Pick<CommandSandboxConfig, 'runtimeDir' | 'baseEnv'>): string[] {
  const named = [config.runtimeDir, (config.baseEnv ?? process.env).XDG_RUNTIME_DIR];
  return [...new Set(named.filter((d): d is string => !!d && path.isAbsolute(d)))];
}

type Kind = 'folder' | 'socket' | 'other';

/** Real path and kind of an existing path, or null. */
async function resolve(p: string): Promise<{ path: string; kind: Kind } | null> {
  try {
    const real = await fsp.realpath(p);
    const st = await fsp.stat(real);
    return { path: real, kind: st.isDirectory() ? 'folder' : st.isSocket() ? 'socket' : 'other' };
  } catch {
    return null;
  }
}

/** The paths of `candidates` that exist now: one listing per parent folder rather than a lookup per path. */
async function present(candidates: readonly string[]): Promise<string[]> {
  const byParent = new Map<string, string[]>();
  for (const p of candidates) byParent.set(path.dirname(p), [...(byParent.get(path.dirname(p)) ?? []), p]);
  const found = await Promise.all(
    [...byParent].map(async ([dir, paths]) => {
      try {
        const names = new Set(await fsp.readdir(dir));
        return paths.filter((p) => names.has(path.basename(p)));
      } catch {
        return [];
      }
    }),
  );
  return found.flat();
}

/**
 * The sockets (real paths) in each folder that holds a bound name, and the folders masked whole: those that hold
 * nothing else (at least two of them), and private ones (mode 0700: where services keep their sockets with their
 * secrets, as the decision helper, gpg and ssh-agent do). One listing (with file types) and one real path per folder.
 */
async function socketsBeside(names: readonly string[]): Promise<{ sockets: string[]; wholeFolders: string[] }> {
  const folders = [...new Set(names.map((n) => path.dirname(n)))];
  const sockets: string[] = [];
  const wholeFolders: string[] = [];
  await Promise.all(
    folders.map(async (dir) => {
      try {
        const [entries, st, real] = await Promise.all([
          fsp.readdir(dir, { withFileTypes: true }),
          fsp.lstat(dir),
          fsp.realpath(dir),
        ]);
        const here = entries.filter((e) => e.isSocket()).map((e) => path.join(real, e.name));
        sockets.push(...here);
        const onlySockets = here.length >= 2 && here.length === entries.length;
        const private_ = st.isDirectory() && (st.mode & 0o077) === 0 && here.length > 0;
        if (onlySockets || private_) wholeFolders.push(dir);
      } catch {
        // gone, or not ours to list
      }
    }),
  );
  return { sockets, wholeFolders };
}

/** Makes the helper's folder as the helper would (0700), so that it is there to be masked; never throws. */
async function ensureHelperFolder(dir: string): Promise<void> {
  try {
    await fsp.mkdir(dir, { mode: 0o700 });
  } catch {
    // there already, or its parent is not writable (then no helper can use it either)
  }
}

export async function socketDoors(src: SocketDoorSources): Promise<SocketDoors> {
  const uid = src.uid ?? process.getuid?.();
  const runtimeDirs = src.runtimeDirs.filter((d) => path.isAbsolute(d));
  const ownNamed = src.ownFolders ?? [];
  const own = [...ownNamed, ...(await Promise.all(ownNamed.map(resolve))).flatMap((r) => (r ? [r.path] : []))];
  const visible = (p: string): boolean =>
    !isInside(p, '/proc') &&
    !isInside(p, '/dev') &&
    visibleUnderBwrap(p, src.writableRoots) &&
    !own.some((o) => isInside(p, o));
  // The sandbox's /tmp is its own (a private folder bound there, the proxy's socket in it): never masked over.
  const holdsWhatStaysOpen = (dir: string): boolean =>
    isInside(src.home, dir) || isInside('/tmp', dir) || src.writableRoots.some((r) => isInside(r, dir));

  const helperFolders = uid === undefined ? [] : helperFolderCandidates(runtimeDirs, uid, src.tmpDir ?? os.tmpdir());
  await Promise.all(helperFolders.filter(visible).map(ensureHelperFolder));

  const bound = src.bound ?? (await boundSocketNames());
  // A relative name was bound in its server's working folder, which is not listed: the roots and the home are where
  // one would reach the sandbox.
  const named = bound.paths.flatMap((p) =>
    path.isAbsolute(p) ? [p] : [...src.writableRoots, src.home].map((base) => path.join(base, p)),
  );
  // Names the sandbox cannot see, or sees under a folder masked whole anyway, need no listing (lexically: a name
  // spelt through a link is listed, which costs a little and masks the same).
  const wholesale = [
    ...src.masked.filter((m) => m.isDirectory).map((m) => m.path),
    ...runtimeDirs,
    ...SYSTEM_DOOR_FOLDERS,
  ];
  const beside = await socketsBeside(
    named.filter((n) => visible(n) && !wholesale.some((f) => isInside(n, f) && !holdsWhatStaysOpen(f))),
  );

  const [tables, folders, allowed] = await Promise.all([
    present([...SYSTEM_DOOR_FILES, ...HOME_DOORS.map((rel) => path.join(src.home, rel))]).then((ps) =>
      Promise.all(ps.map(resolve)),
    ),
    present([...runtimeDirs, ...SYSTEM_DOOR_FOLDERS, ...helperFolders]).then((ps) =>
      Promise.all([...ps, ...beside.wholeFolders].map(resolve)),
    ),
    Promise.all(src.allowUnixSockets.map(resolve)),
  ]);
  // Every bound name that is still a socket is among those beside it (its folder was listed).
  const sockets = beside.sockets.map((p) => ({ path: p, kind: 'socket' as const }));
  const opened = new Set(allowed.filter((a) => a?.kind === 'socket').map((a) => a!.path));

  // Folders, outermost first: each is masked unless a mask already covers it or it holds what must stay open.
  const maskedFolders = src.masked.filter((m) => m.isDirectory).map((m) => m.path);
  const candidates = [...folders, ...tables].filter((t) => t?.kind === 'folder').map((t) => t!.path);
  const doorFolders: string[] = [];
  for (const dir of [...new Set(candidates)].sort((a, b) => a.length - b.length)) {
    if (!visible(dir) || holdsWhatStaysOpen(dir)) continue;
    if ([...maskedFolders, ...doorFolders].some((m) => isInside(dir, m))) continue;
    doorFolders.push(dir);
  }
  const allFolders = [...maskedFolders, ...doorFolders];
  const maskedFiles = new Set(src.masked.filter((m) => !m.isDirectory).map((m) => m.path));
  const doorSockets = new Set<string>();
  for (const t of [...tables, ...sockets]) {
    if (t?.kind !== 'socket' || opened.has(t.path) || maskedFiles.has(t.path) || !visible(t.path)) continue;
    if (!allFolders.some((f) => isInside(t.path, f))) doorSockets.add(t.path);
  }

  const open = [...opened].filter(
    (s) =>
      !isInside(s, '/proc') &&
      !isInside(s, '/dev') &&
      (maskedFiles.has(s) || allFolders.some((f) => isInside(s, f)) || !visibleUnderBwrap(s, src.writableRoots)),
  );
  return {
    masks: [
      ...doorFolders.map((p) => ({ path: p, isDirectory: true })),
      ...[...doorSockets].map((p) => ({ path: p, isDirectory: false })),
    ],
    open,
    opened: [...opened],
  };
}
