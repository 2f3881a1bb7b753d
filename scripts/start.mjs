#!/usr/bin/env node
// `npm start [-- DIR] [--port N] [--no-open] [--web]`: Gatehouse on the folder npm was started from (or DIR).
// First builds what is missing or older than the sources (a fresh clone: everything). Then the desktop app, where
// the Electron runtime is installed and there is a display; otherwise the browser shell (`gatehouse web`), opened
// in the system browser, with one line saying why it is not the desktop app. Never downloads anything itself.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { staleBuildReason } from './build-inputs.mjs';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// npm runs scripts in the package's folder; the person's own folder is INIT_CWD.
const here = process.env.INIT_CWD || process.cwd();

const USAGE = `Usage: npm start [-- [DIR] [--port N] [--no-open] [--web]]

Starts Gatehouse on DIR (default: the folder you ran npm start in), building it first if needed.
  DIR          the project folder to open (also --project DIR)
  --port N     the browser shell's port on 127.0.0.1 (default 0: a free one)
  --no-open    do not open a browser (also GATEHOUSE_NO_OPEN=1 or BROWSER=none)
  --web        the browser shell even where the desktop app could start`;

function fail(message, code = 2) {
  process.stderr.write(`npm start: ${message}\n`);
  process.exit(code);
}

function options() {
  try {
    return parseArgs({
      args: process.argv.slice(2),
      allowPositionals: true,
      options: {
        project: { type: 'string' },
        port: { type: 'string' },
        'no-open': { type: 'boolean' },
        web: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    return fail(`${err.message}\n${USAGE}`);
  }
}

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

/** Runs `npm run build` when out/ is missing or was built from other sources; exits if the build fails. */
async function buildIfNeeded() {
  const why = staleBuildReason(root);
  if (!why) return;
  process.stderr.write(`npm start: building Gatehouse first (${why}); this takes a minute the first time.\n`);
  const npm = process.env.npm_execpath ? [process.execPath, [process.env.npm_execpath]] : ['npm', []];
  const code = await new Promise((resolve) => {
    const build = spawn(npm[0], [...npm[1], 'run', '--silent', 'build'], {
      cwd: root,
      stdio: 'inherit',
      shell: process.platform === 'win32' && !process.env.npm_execpath,
    });
    build.once('error', (err) => {
      process.stderr.write(`npm start: could not run \`npm run build\`: ${err.message}\n`);
      resolve(1);
    });
    build.once('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0)));
  });
  if (code !== 0) fail(`the build failed (exit ${code}): see its output above, fix it, and run npm start again`, code);
}

/**
 * Runs `child` to its end and exits with its code. A Ctrl-C in a terminal reaches the child itself; a signal sent
 * to this process alone (npm passes Ctrl-C on as well) is passed on once, and later ones are left to the child.
 */
function supervise(child) {
  let passedOn = false;
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(sig, () => {
      if (passedOn) return;
      passedOn = true;
      child.kill(sig);
    });
  }
  child.once('error', (err) => fail(`could not start ${child.spawnfile}: ${err.message}`, 1));
  // 'close': the child exited and its output was passed on to the end.
  child.once('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

/** The browser shell on `project`, and after its URL one line saying why this is not the desktop app. */
function startBrowserShell(project, port, open, note) {
  const cli = path.join(root, 'out/main/cli.js');
  const args = [cli, 'web', '--project', project, '--port', port, ...(open ? ['--open'] : [])];
  const child = spawn(process.execPath, args, { cwd: here, stdio: ['inherit', 'pipe', 'inherit'] });
  supervise(child);
  process.stdout.on('error', () => undefined); // a reader that went away stops nothing
  // The note goes right below the URL line, before what the server says next (in the same stream, so in order).
  let pending = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    if (pending === null) return void process.stdout.write(chunk);
    pending += chunk;
    const match = /^Gatehouse is running at .*\n/m.exec(pending);
    if (!match) return;
    const end = match.index + match[0].length;
    process.stdout.write(`${pending.slice(0, end)}${note}\n${pending.slice(end)}`);
    pending = null;
  });
  child.stdout.once('end', () => pending && process.stdout.write(pending));
}

const { values, positionals } = options();
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
if (positionals.length > 1 || (positionals.length === 1 && values.project !== undefined))
  fail(`give one project folder, got ${[values.project, ...positionals].filter(Boolean).join(', ')}\n${USAGE}`);
const port = values.port ?? '0';
if (!/^\d{1,5}$/.test(port) || Number(port) > 65535)
  fail(`--port must be 0..65535 (0 picks a free port), got "${port}"`);

// The folder first: a wrong one is said before a minute of building.
const project = path.resolve(here, positionals[0] ?? values.project ?? '.');
if (!fs.statSync(project, { throwIfNoEntry: false })?.isDirectory()) fail(`project folder not found: ${project}`);

await buildIfNeeded();

const electron = electronBinary();
const noDisplay = process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;
if (electron.path && !noDisplay && !values.web) {
  const child = spawn(electron.path, [root, project], { cwd: here, stdio: 'inherit' });
  supervise(child);
} else {
  const note = values.web
    ? 'This is the browser shell (--web); without --web, npm start opens the desktop app.'
    : electron.path
      ? 'This is the browser shell: the desktop app needs a display (DISPLAY or WAYLAND_DISPLAY), and there is none.'
      : `This is the browser shell: the desktop app needs the Electron runtime, not installed here (${electron.why}); get it with \`npx install-electron\`, then run npm start again.`;
  startBrowserShell(project, port, !values['no-open'], note);
}
