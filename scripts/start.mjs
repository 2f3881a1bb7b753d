#!/usr/bin/env node
// `npm start`: the desktop app under Electron, or, where no Electron runtime is installed, one paragraph saying
// so and the command that runs the same app in a browser. Never downloads anything itself (Electron's own
// loader would try, and end in a stack trace without a network).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/** The Electron binary's path, or null with the reason it is not there. */
function electronBinary() {
  let dir;
  try {
    dir = path.dirname(require.resolve('electron/package.json', { paths: [root] }));
  } catch {
    return { path: null, why: 'the electron package is not installed' };
  }
  let name = null;
  try {
    name = fs.readFileSync(path.join(dir, 'path.txt'), 'utf8').trim();
  } catch {
    // never downloaded: no path.txt
  }
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  const binary = override ? path.join(override, name || 'electron') : name ? path.join(dir, 'dist', name) : null;
  if (binary && fs.existsSync(binary)) return { path: binary, why: null };
  return {
    path: null,
    why: binary ? `${binary} does not exist` : 'its binary was never downloaded: no network during npm install?',
  };
}

const found = electronBinary();
if (!found.path) {
  const cli = path.relative(process.cwd(), path.join(root, 'out/main/cli.js')) || 'out/main/cli.js';
  process.stderr.write(
    [
      `Gatehouse's desktop app needs the Electron runtime, which is not installed here (${found.why}).`,
      'Install it when you have a network (`node node_modules/electron/install.js`, or `npm rebuild electron`),',
      'then run `npm start` again. Meanwhile the same app runs in your browser, with the same engine, rules and',
      'approvals: start the browser shell and open the address it prints:',
      '',
      `    node ${cli} web --project .`,
      '',
    ].join('\n'),
  );
  process.exit(1);
}
const child = spawn(found.path, [root, ...process.argv.slice(2)], { stdio: 'inherit' });
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
