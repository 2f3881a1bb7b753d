/** Where secrets live: folders a sandboxed command must not read, whatever else it may do. */
import type * as fs from 'node:fs';
import * as fsp from 'node:fs/promises';
import * as path from 'node:path';
import { HOME_SECRET_PATHS } from '../shared/secret-paths';

/**
 * Local sockets outside /tmp that would be a way out: the user's session services (D-Bus to the keyring, ssh and
 * gpg agents under /run/user), and container engines (docker.sock is root on the host).
 */
const SYSTEM_SOCKET_PATHS: readonly string[] = [
  '/run/user',
  '/run/dbus',
  '/run/docker.sock',
  '/var/run/docker.sock',
  '/run/podman',
  '/run/containerd',
  '/run/snapd.socket',
  '/run/snapd-snap.socket',
];

/** Every path whose contents a command must not read (absolute, not necessarily existing). */
export function protectedReadPaths(home: string, userConfigDir: string): string[] {
  const list = [userConfigDir, ...HOME_SECRET_PATHS.map((rel) => path.join(home, rel)), ...SYSTEM_SOCKET_PATHS];
  return [...new Set(list.map((p) => path.resolve(p)))];
}

export interface MaskTarget {
  /** Absolute real path of an existing file, socket or directory. */
  path: string;
  isDirectory: boolean;
}

/**
 * The existing protected paths, resolved through symlinks: a mask goes where the data really is, so every name
 * leading there (the link included) ends on the mask. Paths that do not exist need no mask: nothing secret is there.
 */
export async function existingMaskTargets(paths: readonly string[]): Promise<MaskTarget[]> {
  const found = await Promise.all(
    paths.map(async (p): Promise<{ real: string; stat: fs.Stats } | null> => {
      try {
        const real = await fsp.realpath(p);
        return { real, stat: await fsp.stat(real) };
      } catch {
        return null;
      }
    }),
  );
  const out = new Map<string, MaskTarget>();
  for (const f of found) {
    if (f === null) continue;
    const { real, stat } = f;
    if (!stat.isDirectory() && !stat.isFile() && !stat.isSocket()) continue;
    out.set(real, { path: real, isDirectory: stat.isDirectory() });
  }
  return [...out.values()];
}
