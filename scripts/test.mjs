// `npm test` after its build (the pretest script): the static checks (`npm run check`: type-check, ESLint, the
// formatter's check, knip) and the test suite (`vitest run`, with any arguments given to `npm test -- ...`) side by
// side. Both always run to the end, and the command fails if either fails.
//
// Why side by side: the suite keeps the two cores ~90 % busy (it waits on processes, sockets and Chromium), the checks
// are ~35 s of CPU that would otherwise run first, alone, for ~26 s of wall time. Vitest keeps the terminal to itself
// (its live progress); the checks' output is held and printed once the tests are done, and a failed check is named in
// the last line.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const color = process.stdout.isTTY ? { FORCE_COLOR: '1' } : {};

function run(command, args, options) {
  const child = spawn(command, args, { cwd: root, ...options });
  const exited = new Promise((resolve) => {
    child.once('error', (err) => resolve({ code: 1, error: err }));
    child.once('close', (code) => resolve({ code: code ?? 1 }));
  });
  return { child, exited };
}

let checkOutput = '';
const npm = process.env.npm_execpath ? [process.execPath, [process.env.npm_execpath]] : ['npm', []];
const check = run(npm[0], [...npm[1], 'run', '-s', 'check'], {
  env: { ...process.env, ...color },
  stdio: ['ignore', 'pipe', 'pipe'],
});
check.child.stdout?.setEncoding('utf8').on('data', (chunk) => (checkOutput += chunk));
check.child.stderr?.setEncoding('utf8').on('data', (chunk) => (checkOutput += chunk));

const tests = run(path.join(root, 'node_modules', '.bin', 'vitest'), ['run', ...process.argv.slice(2)], {
  stdio: 'inherit',
});

// Ctrl-C in a terminal reaches every process of the group; a signal sent to this process alone is passed on.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    check.child.kill(signal);
    tests.child.kill(signal);
  });
}

const [checked, tested] = await Promise.all([check.exited, tests.exited]);
if (checkOutput.trim()) process.stdout.write(`\n${checkOutput.trimEnd()}\n`);
if (checked.error) console.error(`npm test: could not run \`npm run check\`: ${checked.error.message}`);
if (tested.error) console.error(`npm test: could not run vitest: ${tested.error.message}`);
const names = [
  checked.code !== 0 && 'the checks (npm run check)',
  tested.code !== 0 && 'the tests (vitest run)',
].filter(Boolean);
if (names.length > 0) {
  console.error(`npm test: ${names.join(' and ')} failed`);
  process.exit(1);
}
console.log('npm test: the checks (type-check, ESLint, format, knip, layers) and the tests passed');
