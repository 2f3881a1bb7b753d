import fs from 'node:fs';
import path from 'node:path';
import type { PathSystem } from '../../../src/shared/node/platform-path';
import type { EngineDisk, FsView } from '../../../src/main/core/paths/fs-view';

/**
 * A real temporary tree shown to the engine under another platform's paths: `C:\` (or `\\srv\share\`) is the folder
 * `host`, so `C:\project\.env` is `host/project/.env`, read and linked for real. With `foldCase` the disk also
 * behaves as a case-insensitive volume (the host's ext4 is not one): a name that is not there as written is looked
 * up among its folder's entries ignoring case, as APFS or NTFS would find it, so `.GATEHOUSE` opens `.gatehouse` and
 * `LINK-OUT` follows the link `link-out`.
 */
export interface SimulatedDisk extends EngineDisk {
  /** The engine path of a file of the tree (`host/project/x` -> `C:\project\x`). */
  enginePath(hostFile: string): string;
}

export function simulatedDisk(opts: { sys: PathSystem; root: string; host: string; foldCase: boolean }): SimulatedDisk {
  const { sys, root, host, foldCase } = opts;
  const fold = (s: string): string => sys.withFoldCase(true).nameKey(s);

  /** The host file a name of `dir` opens: as written, else (folding volume) the entry equal to it ignoring case. */
  const entry = (dir: string, name: string): string => {
    const exact = path.join(dir, name);
    if (name === '..' || !foldCase || fs.existsSync(exact)) return exact;
    let names: string[];
    try {
      names = fs.readdirSync(dir);
    } catch {
      return exact;
    }
    const hit = names.find((n) => fold(n) === fold(name));
    return hit === undefined ? exact : path.join(dir, hit);
  };

  const toHost = (p: string): string | null => {
    const rel = sys.relativeInside(sys.normalize(p), root);
    if (rel === null) return null;
    let current = host;
    for (const name of rel === '' ? [] : rel.split(sys.sep)) current = entry(current, name);
    return current;
  };

  const enginePath = (hostFile: string): string => {
    const rel = path.relative(host, hostFile);
    if (rel.startsWith('..') || path.isAbsolute(rel)) return hostFile;
    return rel === '' ? sys.normalize(root) : sys.join(root, ...rel.split(path.sep));
  };

  /** A link's target as the engine reads it: absolute targets into the tree are shown under the engine's paths. */
  const target = (link: string): string => (path.isAbsolute(link) ? enginePath(link) : link);

  const view: FsView = {
    lstat(p) {
      const h = toHost(p);
      return h === null ? null : (fs.lstatSync(h, { throwIfNoEntry: false }) ?? null);
    },
    readlink(p) {
      const h = toHost(p);
      if (h === null) throw new Error(`not in the simulated tree: ${p}`);
      return target(fs.readlinkSync(h));
    },
    readdir(p) {
      const h = toHost(p);
      try {
        return h === null ? null : fs.readdirSync(h, { withFileTypes: true });
      } catch {
        return null;
      }
    },
  };

  const unmapped = (p: string): Error =>
    Object.assign(new Error(`ENOENT: not in the simulated tree: ${p}`), { code: 'ENOENT' });

  return {
    enginePath,
    lstat: async (p) => view.lstat(p),
    readlink: async (p) => {
      const h = toHost(p);
      return h === null ? null : fs.promises.readlink(h).then(target, () => null);
    },
    readdir: async (p) => view.readdir(p),
    stat: async (p) => {
      const h = toHost(p);
      return h === null ? null : fs.promises.stat(h, { bigint: true }).catch(() => null);
    },
    realpath: async (p) => {
      const h = toHost(p);
      if (h === null) throw unmapped(p);
      return enginePath(await fs.promises.realpath(h));
    },
    hostPath: (p) => toHost(p) ?? path.join(host, '.not-in-the-simulated-tree'),
  };
}
