import fs from 'node:fs';
import path from 'node:path';

/** A settings file's identity and version as stat'ed: `absent`, `error:<code>`, or inode:size:mtime:ctime (ns). */
export interface FileKey {
  key: string;
  ctimeNs: bigint;
}

const ABSENT: FileKey = { key: 'absent', ctimeNs: 0n };

// fs's callback API, not fs.promises: every decision looks at every settings file, most of which do not exist, and
// fs.promises costs more per missing file (a rejected promise with a captured stack each).

/** The key of one file, with `stat` (links followed). */
export function statKey(file: string): Promise<FileKey> {
  return new Promise((resolve) =>
    fs.stat(file, { bigint: true }, (err, st) => {
      if (!err) return resolve({ key: `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`, ctimeNs: st.ctimeNs });
      const code = err.code;
      resolve(code === 'ENOENT' || code === 'ENOTDIR' ? ABSENT : { key: `error:${code ?? 'unknown'}`, ctimeNs: 0n });
    }),
  );
}

/** The names in a folder (lower-cased), `absent` when there is no such folder, null when it cannot be listed. */
function listedNames(dir: string): Promise<Set<string> | 'absent' | null> {
  return new Promise((resolve) =>
    fs.readdir(dir, (err, names) => {
      if (!err) return resolve(new Set(names.map((n) => n.toLowerCase())));
      resolve(err.code === 'ENOENT' || err.code === 'ENOTDIR' ? 'absent' : null);
    }),
  );
}

/** A file to look at, and whether it was absent when last looked at. */
export interface KeyRequest {
  file: string;
  wasAbsent: boolean;
}

/**
 * The keys of the settings files, each exactly as `statKey` would give it now, with fewer reads: a file that was
 * there is stat'ed; the files of one folder that were absent are looked up in one listing of the folder (the usual
 * case: most settings files do not exist), and only one that is listed now is stat'ed. A name is compared ignoring
 * case, so that on a volume that folds case a `Settings.yaml` is stat'ed as `settings.yaml` would find it.
 */
export async function settingsFileKeys(requests: readonly KeyRequest[]): Promise<Map<string, FileKey>> {
  const keys = new Map<string, FileKey>();
  const absentByDir = new Map<string, string[]>();
  for (const r of requests) {
    if (!r.wasAbsent) continue;
    const dir = path.dirname(r.file);
    const group = absentByDir.get(dir);
    if (group) group.push(r.file);
    else absentByDir.set(dir, [r.file]);
  }
  const stat = async (file: string): Promise<void> => void keys.set(file, await statKey(file));
  const listed = async (dir: string, files: string[]): Promise<void> => {
    const names = await listedNames(dir);
    const there = (f: string): boolean =>
      names === null || (names !== 'absent' && names.has(path.basename(f).toLowerCase()));
    for (const f of files) if (!there(f)) keys.set(f, ABSENT);
    await Promise.all(files.filter(there).map(stat));
  };
  await Promise.all([
    ...requests
      .filter((r) => !r.wasAbsent || absentByDir.get(path.dirname(r.file))?.length === 1)
      .map((r) => stat(r.file)),
    ...[...absentByDir].filter(([, files]) => files.length > 1).map(([dir, files]) => listed(dir, files)),
  ]);
  return keys;
}
