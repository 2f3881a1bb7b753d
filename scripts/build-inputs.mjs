// What `npm run build` reads, as one hash: scripts/post-build.mjs writes it into out/ when a build ends, and
// scripts/start.mjs (`npm start`) builds again only when the hash of the files now differs (a fresh clone has no
// out/ at all). Every file the build reads is listed here: the sources, the build's configuration and scripts,
// and the lock file (a changed dependency changes the bundles).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Where the hash of the inputs of the last finished build is kept. */
export const BUILD_STAMP = 'out/.build-inputs';

const FOLDERS = ['src'];
const FILES = [
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'electron.vite.config.ts',
  'cli.vite.config.ts',
  'scripts/post-build.mjs',
  'scripts/vite-toml-data.mts',
  'scripts/build-inputs.mjs',
];

/** Every regular file under `dir` (relative to `root`), in a fixed order. */
function filesUnder(root, dir) {
  let entries;
  try {
    entries = fs.readdirSync(path.join(root, dir), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((e) => {
      const rel = path.posix.join(dir, e.name);
      if (e.isDirectory()) return filesUnder(root, rel);
      return e.isFile() ? [rel] : [];
    });
}

/** The hash of the build's inputs under `root` as they are now (a missing file counts as missing). */
export function buildInputsHash(root) {
  const hash = createHash('sha256');
  for (const rel of [...FILES, ...FOLDERS.flatMap((d) => filesUnder(root, d))]) {
    let data;
    try {
      data = fs.readFileSync(path.join(root, rel));
    } catch {
      data = null;
    }
    hash.update(`${rel}\0${data ? data.length : -1}\0`);
    if (data) hash.update(data);
  }
  return hash.digest('hex');
}

/** Why `root` needs a build before it can start, or null when out/ was built from the files as they are now. */
export function staleBuildReason(root) {
  let stamp;
  try {
    stamp = fs.readFileSync(path.join(root, BUILD_STAMP), 'utf8').trim();
  } catch {
    return fs.existsSync(path.join(root, 'out')) ? 'out/ has no record of what it was built from' : 'not built yet';
  }
  return stamp === buildInputsHash(root) ? null : 'the sources changed since the last build';
}

/** Records that out/ was built from the files as they are now (the last step of `npm run build`). */
export function writeBuildStamp(root) {
  fs.writeFileSync(path.join(root, BUILD_STAMP), `${buildInputsHash(root)}\n`);
}
