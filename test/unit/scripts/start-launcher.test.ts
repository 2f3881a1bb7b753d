import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

// `npm start` (scripts/start.mjs) in a stand-in clone: its build script and its built CLI are small scripts that
// record what they were asked, so what the launcher decides is seen without a minute of real building. The real
// `npm start` on this repository is test/integration/npm-start.test.ts.

const ROOT = path.resolve(__dirname, '../../..');
const URL_LINE = 'Gatehouse is running at http://127.0.0.1:9/#token=t';

let dir = '';
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = '';
});

interface Clone {
  root: string;
  /** The folder `npm start` was run in (INIT_CWD). */
  here: string;
  builds(): number;
  cliArgs(): string[] | null;
  signals(): string[];
}

/** A clone with the real launcher, no out/ (as after `git clone`), and stand-ins for the build and the CLI. */
function freshClone(): Clone {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-npm-start-')));
  const root = path.join(dir, 'clone');
  const here = path.join(dir, 'my project');
  for (const d of ['scripts', 'src', 'home']) fs.mkdirSync(path.join(root, d), { recursive: true });
  fs.mkdirSync(here);
  for (const f of ['start.mjs', 'build-inputs.mjs'])
    fs.copyFileSync(path.join(ROOT, 'scripts', f), path.join(root, 'scripts', f));
  fs.writeFileSync(path.join(root, 'src', 'a.ts'), 'export const a = 1;\n');
  fs.writeFileSync(
    path.join(root, 'package.json'),
    JSON.stringify({ name: 'clone', private: true, scripts: { build: 'node build.mjs' } }),
  );
  const record = (name: string): string => JSON.stringify(path.join(dir, name));
  // The CLI stand-in: records its arguments, prints the URL line and what the real one says next, then waits for a
  // stop signal and records each one it gets.
  const cli = `
const fs = require('node:fs');
fs.writeFileSync(${record('cli-args')}, JSON.stringify(process.argv.slice(2)));
process.stdout.write(${JSON.stringify(`${URL_LINE}\n`)});
setTimeout(() => process.stdout.write('Ctrl-C stops it.\\n'), 50);
for (const s of ['SIGINT', 'SIGTERM']) process.on(s, () => { fs.appendFileSync(${record('signals')}, s + '\\n'); setTimeout(() => process.exit(0), 100); });
setInterval(() => undefined, 1000);
`;
  fs.writeFileSync(
    path.join(root, 'build.mjs'),
    `import fs from 'node:fs';
import { writeBuildStamp } from './scripts/build-inputs.mjs';
fs.appendFileSync(${record('builds')}, 'built\\n');
if (process.env.FAKE_BUILD_EXIT) process.exit(Number(process.env.FAKE_BUILD_EXIT));
fs.mkdirSync('out/main', { recursive: true });
fs.writeFileSync('out/main/cli.js', ${JSON.stringify(cli)});
writeBuildStamp(process.cwd());
`,
  );
  const read = (name: string): string | null => {
    try {
      return fs.readFileSync(path.join(dir, name), 'utf8');
    } catch {
      return null;
    }
  };
  return {
    root,
    here,
    builds: () => (read('builds') ?? '').split('\n').filter(Boolean).length,
    cliArgs: () => JSON.parse(read('cli-args') ?? 'null') as string[] | null,
    signals: () => (read('signals') ?? '').split('\n').filter(Boolean),
  };
}

interface Started {
  out: () => string;
  err: () => string;
  pid: number;
  closed: Promise<number | null>;
}

function start(clone: Clone, args: string[] = [], env: NodeJS.ProcessEnv = {}): Started {
  const child = spawn(process.execPath, [path.join(clone.root, 'scripts', 'start.mjs'), ...args], {
    cwd: clone.root, // npm runs scripts in the package's folder ...
    env: {
      PATH: process.env.PATH,
      HOME: path.join(clone.root, 'home'),
      INIT_CWD: clone.here, // ... and says where it was started
      npm_config_update_notifier: 'false',
      ...(process.env.npm_execpath ? { npm_execpath: process.env.npm_execpath } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
  return {
    out: () => out,
    err: () => err,
    pid: child.pid!,
    closed: new Promise((resolve) => child.once('close', (code) => resolve(code))),
  };
}

/** Waits for the URL line, then stops the launcher as npm passes a Ctrl-C on (twice: npm's and the terminal's). */
async function untilServedThenStop(s: Started): Promise<number | null> {
  await expect.poll(() => s.out(), { timeout: 30_000 }).toContain('Ctrl-C stops it.');
  process.kill(s.pid, 'SIGINT');
  process.kill(s.pid, 'SIGINT');
  return s.closed;
}

describe('npm start in a fresh clone without an Electron runtime', () => {
  it('builds first, starts the browser shell on the folder it was run in, and says why not the desktop app', async () => {
    const clone = freshClone();
    const s = start(clone);
    expect(await untilServedThenStop(s)).toBe(0);
    expect(s.err()).toContain('npm start: building Gatehouse first (not built yet)');
    expect(clone.builds()).toBe(1);
    expect(clone.cliArgs()).toEqual(['web', '--project', clone.here, '--port', '0', '--open']);
    const lines = s.out().trimEnd().split('\n');
    expect(lines[0]).toBe(URL_LINE);
    expect(lines[1]).toBe(
      'This is the browser shell: the desktop app needs the Electron runtime, not installed here (the electron ' +
        'package is not installed); get it with `npx install-electron`, then run npm start again.',
    );
    expect(lines[2]).toBe('Ctrl-C stops it.');
    // The stop reached the shell once, however many times the launcher was signalled.
    expect(clone.signals()).toEqual(['SIGINT']);
    expect(s.err()).not.toMatch(/\n\s+at /);
  });

  it('builds again only when a source changed, and takes a folder, a port and --no-open', async () => {
    const clone = freshClone();
    expect(await untilServedThenStop(start(clone))).toBe(0);
    const again = start(clone, ['--port', '4400', '--no-open']);
    expect(await untilServedThenStop(again)).toBe(0);
    expect(again.err()).toBe('');
    expect(clone.builds()).toBe(1);
    expect(clone.cliArgs()).toEqual(['web', '--project', clone.here, '--port', '4400']);

    fs.writeFileSync(path.join(clone.root, 'src', 'a.ts'), 'export const a = 2;\n');
    fs.mkdirSync(path.join(clone.here, 'sub'));
    const changed = start(clone, ['sub']);
    expect(await untilServedThenStop(changed)).toBe(0);
    expect(changed.err()).toContain('building Gatehouse first (the sources changed since the last build)');
    expect(clone.builds()).toBe(2);
    expect(clone.cliArgs()?.slice(0, 3)).toEqual(['web', '--project', path.join(clone.here, 'sub')]);
  });

  it("stops with the build's exit code when the build fails, and starts nothing", async () => {
    const clone = freshClone();
    const s = start(clone, [], { FAKE_BUILD_EXIT: '7' });
    expect(await s.closed).toBe(7);
    expect(s.err()).toContain('npm start: the build failed (exit 7)');
    expect(clone.cliArgs()).toBeNull();
  });

  it('names a missing folder or a bad argument before building anything', async () => {
    const clone = freshClone();
    const missing = start(clone, ['nowhere']);
    expect(await missing.closed).toBe(2);
    expect(missing.err()).toBe(`npm start: project folder not found: ${path.join(clone.here, 'nowhere')}\n`);
    const bad = start(clone, ['--prot', '1']);
    expect(await bad.closed).toBe(2);
    expect(bad.err()).toMatch(/^npm start: Unknown option '--prot'[^]*Usage: npm start/);
    expect(clone.builds()).toBe(0);
  });
});

describe('npm start with an Electron runtime', () => {
  /** A stand-in Electron binary where the launcher looks for one: it records its arguments and exits 0. */
  function withElectron(clone: Clone): void {
    const pkg = path.join(clone.root, 'node_modules', 'electron');
    fs.mkdirSync(path.join(pkg, 'dist'), { recursive: true });
    fs.writeFileSync(path.join(pkg, 'package.json'), '{"name":"electron","version":"0.0.0"}');
    fs.writeFileSync(path.join(pkg, 'path.txt'), 'electron');
    const record = JSON.stringify(path.join(dir, 'electron-args'));
    fs.writeFileSync(
      path.join(pkg, 'dist', 'electron'),
      `#!${process.execPath}\nrequire('node:fs').writeFileSync(${record}, JSON.stringify(process.argv.slice(2)));\n`,
      { mode: 0o755 },
    );
  }

  it('opens the desktop app on the folder where there is a display', async () => {
    const clone = freshClone();
    withElectron(clone);
    const s = start(clone, [], { DISPLAY: ':99' });
    expect(await s.closed).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'electron-args'), 'utf8'))).toEqual([clone.root, clone.here]);
    expect(clone.cliArgs()).toBeNull();
  });

  it.skipIf(process.platform !== 'linux')(
    'serves the browser shell where there is no display, or with --web',
    async () => {
      const clone = freshClone();
      withElectron(clone);
      const headless = start(clone);
      expect(await untilServedThenStop(headless)).toBe(0);
      expect(headless.out()).toContain(
        'the desktop app needs a display (DISPLAY or WAYLAND_DISPLAY), and there is none',
      );
      const web = start(clone, ['--web'], { DISPLAY: ':99' });
      expect(await untilServedThenStop(web)).toBe(0);
      expect(web.out()).toContain('This is the browser shell (--web)');
      expect(fs.existsSync(path.join(dir, 'electron-args'))).toBe(false);
    },
  );
});
