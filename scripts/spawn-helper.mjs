// node-pty starts every command on macOS through its `spawn-helper` executable, and node-pty 1.1.0 publishes the
// prebuilt ones (prebuilds/darwin-*/spawn-helper) without their execute bit (mode 0644, upstream node-pty#850):
// every command then fails with "posix_spawnp failed". This sets the bit, at install (scripts/postinstall.mjs)
// and again in the packed app (scripts/after-pack.mjs), so neither an install that skipped scripts nor a
// packaging machine's own node_modules can ship the app without it.
import fs from 'node:fs';
import path from 'node:path';

const EXECUTABLE = 0o755;

/** Every spawn-helper node-pty ships under `nodePtyDir`: its darwin prebuilds and a build from source. */
function findSpawnHelpers(nodePtyDir) {
  const found = [];
  let prebuilds = [];
  try {
    prebuilds = fs.readdirSync(path.join(nodePtyDir, 'prebuilds'), { withFileTypes: true });
  } catch (err) {
    if (err.code !== 'ENOENT') throw err;
  }
  for (const entry of prebuilds) {
    if (entry.isDirectory() && entry.name.startsWith('darwin-'))
      found.push(path.join(nodePtyDir, 'prebuilds', entry.name, 'spawn-helper'));
  }
  found.push(path.join(nodePtyDir, 'build', 'Release', 'spawn-helper'));
  return found.filter((file) => fs.lstatSync(file, { throwIfNoEntry: false })?.isFile());
}

/**
 * Gives `file` mode 0755. A file with other names (a hard link into a package manager's store, or into the
 * node_modules the packer copied it from) is replaced by an executable copy, so only this name changes.
 * Returns whether the mode had to change.
 */
export function makeExecutable(file) {
  const st = fs.statSync(file);
  if ((st.mode & 0o777) === EXECUTABLE) return false;
  if (st.nlink > 1) {
    const copy = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
    try {
      fs.copyFileSync(file, copy);
      fs.chmodSync(copy, EXECUTABLE);
      fs.renameSync(copy, file);
    } finally {
      fs.rmSync(copy, { force: true });
    }
  } else {
    fs.chmodSync(file, EXECUTABLE);
  }
  return true;
}

/** Makes every spawn-helper under `nodePtyDir` executable; returns them, with whether each had to change. */
export function makeSpawnHelpersExecutable(nodePtyDir) {
  return findSpawnHelpers(nodePtyDir).map((file) => ({ file, changed: makeExecutable(file) }));
}
