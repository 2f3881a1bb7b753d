#!/usr/bin/env node
// `npm test` (after `pretest` built the app): the static checks (`npm run check`: type-check, ESLint, Prettier, knip)
// and the tests (`vitest run`, with any arguments given to `npm test -- ...`) at the same time. The tests keep the
// machine's cores busy most of the time but not all of it (they wait on processes, sockets and the browser); the
// checks run at a lower CPU priority in those gaps instead of before the tests, so on a 2-core machine the whole
// takes about as long as the tests alone. The tests' output is shown as it comes; the checks' is printed after it.
// The result fails if either fails.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const windows = process.platform === 'win32';

/** Waits for a child's end: its exit code (1 when it was killed by a signal or could not start). */
function ended(child, name) {
  return new Promise((resolve) => {
    child.once('error', (err) => {
      process.stderr.write(`npm test: ${name} could not start: ${err.message}\n`);
      resolve(1);
    });
    child.once('close', (code, signal) => resolve(signal ? 1 : (code ?? 1)));
  });
}

const checkStarted = Date.now();
const check = spawn(windows ? 'npm.cmd' : 'npm', ['run', 'check'], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'pipe'],
  shell: windows,
});
// Its processes (tsc, ESLint, Prettier, knip) start later and inherit this priority.
try {
  if (check.pid !== undefined) os.setPriority(check.pid, 10);
} catch {
  // Not allowed here: the checks then share the CPU equally, which is only slower.
}
let checkOutput = '';
check.stdout.setEncoding('utf8').on('data', (text) => (checkOutput += text));
check.stderr.setEncoding('utf8').on('data', (text) => (checkOutput += text));
const checkDone = ended(check, 'npm run check').then((code) => ({ code, seconds: (Date.now() - checkStarted) / 1000 }));

// Vitest's own command (its package's "bin"), run by this Node.
const vitestPackage = require.resolve('vitest/package.json');
const vitestBin = path.join(path.dirname(vitestPackage), require(vitestPackage).bin.vitest);
const vitest = spawn(process.execPath, [vitestBin, 'run', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
});
const testsDone = ended(vitest, 'vitest');

// Ctrl-C reaches both through the terminal; a signal sent to this process alone is passed on.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    for (const child of [check, vitest]) if (child.exitCode === null) child.kill(signal);
  });
}

const [tests, checks] = await Promise.all([testsDone, checkDone]);
process.stdout.write(
  `\n── npm run check (type-check, ESLint, Prettier, knip), run beside the tests ──\n${checkOutput.trim()}\n`,
);
process.stdout.write(
  checks.code === 0
    ? `check: passed (${checks.seconds.toFixed(0)} s)\n`
    : `check: FAILED (exit code ${checks.code}): see its output above\n`,
);
if (tests !== 0) process.stdout.write(`tests: FAILED (exit code ${tests})\n`);
process.exit(tests !== 0 ? tests : checks.code === 0 ? 0 : 1);
