import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'vite';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { withStateLock } from '../../../src/main/core/fs/state-lock';
import { TrustStore } from '../../../src/main/core/trust/trust-store';
import { REPO, mkdirs, privateCli, tempDir } from './helpers';

let cli: ReturnType<typeof privateCli>;
let writer: string;
let writerDir: string;
beforeAll(async () => {
  cli = privateCli();
  // The writer (fixtures/trust-writer.ts) is bundled with vite into a plain Node script run as separate processes.
  // Under the repo, so the bundle's dependencies (zod, yaml) resolve from node_modules.
  fs.mkdirSync(path.join(REPO, 'test-results'), { recursive: true });
  writerDir = fs.mkdtempSync(path.join(REPO, 'test-results', 'trust-writer-'));
  await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      ssr: path.join(__dirname, 'fixtures/trust-writer.ts'),
      outDir: writerDir,
      emptyOutDir: false,
      rollupOptions: { output: { format: 'cjs', entryFileNames: 'trust-writer.cjs' } },
    },
  });
  writer = path.join(writerDir, 'trust-writer.cjs');
});
afterAll(() => {
  cli?.cleanup();
  if (writerDir) fs.rmSync(writerDir, { recursive: true, force: true });
});

function runNode(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli.cli, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** True once another process has written a decision to the trust file in `config`. */
async function othersHaveWritten(config: string): Promise<boolean> {
  return (await new TrustStore({ configDir: config }).list()).length > 0;
}

/** Each test's folder, removed after it whether it passed or not. */
const roots: string[] = [];
function newRoot(): string {
  const root = tempDir();
  roots.push(root);
  return root;
}
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

describe('two processes writing at once', () => {
  it('lose no decision: CLI processes in parallel with writes from this process', async () => {
    const root = newRoot();
    const config = path.join(root, 'config');
    const cliFolders = Array.from({ length: 8 }, (_, i) => path.join(root, 'cli', `p${i}`));
    const appFolders = Array.from({ length: 15 }, (_, i) => path.join(root, 'app', `p${i}`));
    mkdirs(root, ...cliFolders.map((f) => path.relative(root, f)), ...appFolders.map((f) => path.relative(root, f)));
    const env = { ...process.env, GATEHOUSE_HOME: config };
    const runs = cliFolders.map((dir, i) =>
      runCli(['trust', 'set', dir, '--scope', i % 2 ? 'never' : 'directory'], env),
    );
    const app = new TrustStore({ configDir: config });
    // The desktop app writes while the CLIs do (from the first decision one of them wrote); each of its writes is its
    // own read-modify-write under the lock.
    await expect.poll(() => othersHaveWritten(config)).toBe(true);
    for (const dir of appFolders) await app.set(dir, 'directory');
    const results = await Promise.all(runs);
    expect(results.map((r) => r.stderr).join('')).toBe('');
    expect(results.map((r) => r.code)).toEqual(cliFolders.map(() => 0));
    const fresh = new TrustStore({ configDir: config });
    expect(await fresh.list()).toHaveLength(cliFolders.length + appFolders.length);
    for (const [i, dir] of cliFolders.entries())
      expect((await fresh.check(dir)).decision).toBe(i % 2 ? 'never' : 'directory');
    for (const dir of appFolders) expect((await fresh.check(dir)).trusted).toBe(true);
    expect(fs.readdirSync(config).filter((n) => n !== 'tmp')).toEqual(['trust.json']);
  });

  it('lose no decision under sustained load: 4 processes writing 30 decisions each, plus this one', async () => {
    const root = newRoot();
    const config = path.join(root, 'config');
    const writers = [0, 1, 2, 3].map((w) => runNode([writer, config, path.join(root, `w${w}`), '30']));
    const app = new TrustStore({ configDir: config });
    await expect.poll(() => othersHaveWritten(config)).toBe(true);
    for (let i = 0; i < 30; i++) {
      const dir = path.join(root, `app-${i}`);
      fs.mkdirSync(dir);
      await app.set(dir, 'directory');
    }
    const results = await Promise.all(writers);
    expect(results.map((r) => r.stderr).join('')).toBe('');
    const entries = await new TrustStore({ configDir: config }).list();
    expect(entries).toHaveLength(5 * 30);
    for (let w = 0; w < 4; w++) {
      for (let i = 0; i < 30; i++)
        expect((await app.check(path.join(root, `w${w}-${i}`))).decision).toBe(i % 3 === 0 ? 'never' : 'directory');
    }
  });

  it('a revoke from the CLI applies to the running app on its next check', async () => {
    const root = newRoot();
    const config = path.join(root, 'config');
    mkdirs(root, 'proj');
    const app = new TrustStore({ configDir: config });
    await app.set(path.join(root, 'proj'), 'directory');
    expect((await app.check(path.join(root, 'proj'))).trusted).toBe(true);
    const r = await runCli(['trust', 'revoke', path.join(root, 'proj')], { ...process.env, GATEHOUSE_HOME: config });
    expect(r.code).toBe(0);
    expect((await app.check(path.join(root, 'proj'))).trusted).toBe(false);
  });
});

describe('the state lock (proper-lockfile)', () => {
  it('is taken over when its owner died and left it behind (stale)', async () => {
    const root = newRoot();
    const file = path.join(root, 'state.json');
    fs.mkdirSync(`${file}.lock`);
    const old = new Date(Date.now() - 60_000);
    fs.utimesSync(`${file}.lock`, old, old);
    expect(await withStateLock(file, async () => 42, { timeoutMs: 2000 })).toBe(42);
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
  });

  it('is waited for while another live process holds it, then fails clearly rather than racing', async () => {
    const root = newRoot();
    const file = path.join(root, 'state.json');
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `require('proper-lockfile').lock(${JSON.stringify(file)}, { realpath: false }).then(() => { console.log('locked'); setInterval(() => {}, 1000); })`,
      ],
      { cwd: REPO, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
    let ran = false;
    const waited = withStateLock(
      file,
      async () => {
        ran = true;
      },
      { timeoutMs: 300 },
    );
    await expect(waited).rejects.toThrow(/could not lock .*state\.json: another Gatehouse process/);
    expect(ran).toBe(false);
    expect(fs.statSync(`${file}.lock`).isDirectory()).toBe(true);
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    holder.kill();
    await exited;
  });

  it('queues calls of one process without losing any read-modify-write', async () => {
    const root = newRoot();
    const file = path.join(root, 'counter.txt');
    fs.writeFileSync(file, '0');
    await Promise.all(
      Array.from({ length: 50 }, () =>
        withStateLock(file, async () => {
          const n = Number(await fs.promises.readFile(file, 'utf8'));
          await new Promise((r) => setImmediate(r));
          await fs.promises.writeFile(file, String(n + 1));
        }),
      ),
    );
    expect(fs.readFileSync(file, 'utf8')).toBe('50');
  });
});
