// Run by `npm ci` / `npm install` (the project's own postinstall script, which npm runs whatever allowScripts
// says: allowScripts only governs dependencies' scripts). Sets the execute bit node-pty 1.1.0's macOS
// spawn-helper is published without (see spawn-helper.mjs). `node scripts/postinstall.mjs DIR` fixes the
// node-pty folder DIR instead of this project's.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeSpawnHelpersExecutable } from './spawn-helper.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const nodePty = path.resolve(process.argv[2] ?? path.join(root, 'node_modules', 'node-pty'));
try {
  for (const { file, changed } of makeSpawnHelpersExecutable(nodePty))
    if (changed) console.log(`postinstall: made ${path.relative(process.cwd(), file)} executable (node-pty#850)`);
} catch (err) {
  console.error(`postinstall: cannot make node-pty's spawn-helper executable in ${nodePty}: ${err.message}`);
  console.error('postinstall: without it every command fails on macOS ("posix_spawnp failed")');
  process.exit(1);
}
