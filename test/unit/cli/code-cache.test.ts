import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { userCacheDir } from '../../../src/shared/node/user-folders';
import { privateCli, tempDir } from '../trust/helpers';

// The built `gatehouse` binary keeps its compiled code in the user's cache folder between runs (a hook runs it once
// per tool call). A cache is only ever a speed-up: whatever is in that folder, the answer is the same, and a folder
// others could write to is never used. Speed itself is measured by `npm run bench -- --only cli`, not here.

const nodeCompileCache = typeof (Module as { enableCompileCache?: unknown }).enableCompileCache === 'function';
const CALL = JSON.stringify({ tool: 'run_command', input: { command: 'ls -la && git status' } });

let built: ReturnType<typeof privateCli>;
beforeAll(() => {
  built = privateCli();
}, 180_000);
afterAll(() => built.cleanup());

let root: string;
let project: string;
let home: string;
beforeEach(() => {
  root = tempDir('gh-code-cache-');
  project = path.join(root, 'project');
  home = path.join(root, 'home');
  fs.mkdirSync(project);
  fs.mkdirSync(home);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function check(extraEnv: NodeJS.ProcessEnv = {}): { code: number | null; out: string; err: string } {
  // In-process (no decision helper), which is what loads the command's code through the cache.
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    GATEHOUSE_HOME: path.join(root, 'gh'),
    GATEHOUSE_DECISION_HELPER: '0',
    ...extraEnv,
  };
  const r = spawnSync(process.execPath, [built.cli, 'permissions', 'check', '--project', project, '--call', CALL], {
    env,
    cwd: project,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** The folder this Node's cache lives in, for a HOME of `home`. */
function cacheFolder(): string {
  const base = userCacheDir({ HOME: home });
  return nodeCompileCache
    ? path.join(base, 'node-compile-cache')
    : path.join(base, 'v8-code', `${process.version}-${process.arch}`);
}

function cacheFiles(): string[] {
  try {
    return fs.readdirSync(cacheFolder()).sort();
  } catch {
    return [];
  }
}

describe('the CLI code cache', () => {
  it('is written to the user cache folder on the first run, private to the user, and gives the same answer', () => {
    const first = check();
    expect(first).toMatchObject({ code: 0, err: '' });
    expect(JSON.parse(first.out)).toMatchObject({ decision: 'ask', source: 'trust' });
    expect(cacheFiles().length).toBeGreaterThan(0);
    if (process.platform !== 'win32') expect(fs.statSync(cacheFolder()).mode & 0o077).toBe(0);
    const second = check();
    expect(second).toEqual(first);
  });

  it.skipIf(nodeCompileCache)('(Node 20 V8 cache) ignores damaged cache files and writes them again', () => {
    expect(check().code).toBe(0);
    const files = cacheFiles();
    expect(files.length).toBeGreaterThan(0);
    for (const name of files) {
      const file = path.join(cacheFolder(), name);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      fs.writeFileSync(file, Buffer.from('not V8 code cache data, and not the right length either'));
    }
    const r = check();
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(JSON.parse(r.out)).toMatchObject({ decision: 'ask', source: 'trust' });
    for (const name of files) expect(fs.statSync(path.join(cacheFolder(), name)).size).toBeGreaterThan(1000);
  });

  it('is not used when others may write to the cache folder, and not at all with GATEHOUSE_CODE_CACHE=0', () => {
    if (process.platform === 'win32') return;
    // The cache's own folder private, but Gatehouse's cache folder above it writable by all: someone could swap it.
    fs.mkdirSync(cacheFolder(), { recursive: true, mode: 0o700 });
    fs.chmodSync(userCacheDir({ HOME: home }), 0o777);
    const shared = check();
    expect(shared).toMatchObject({ code: 0, err: '' });
    expect(JSON.parse(shared.out)).toMatchObject({ decision: 'ask', source: 'trust' });
    expect(cacheFiles()).toEqual([]);
    fs.chmodSync(userCacheDir({ HOME: home }), 0o700);
    fs.chmodSync(cacheFolder(), 0o777);
    expect(check()).toEqual(shared);
    expect(cacheFiles()).toEqual([]);

    fs.rmSync(userCacheDir({ HOME: home }), { recursive: true, force: true });
    const off = check({ GATEHOUSE_CODE_CACHE: '0' });
    expect(off).toEqual(shared);
    expect(fs.existsSync(userCacheDir({ HOME: home }))).toBe(false);
  });

  it('lives in XDG_CACHE_HOME when that is an absolute path, else in ~/.cache', () => {
    if (process.platform === 'darwin' || process.platform === 'win32') return;
    expect(userCacheDir({ HOME: '/h', XDG_CACHE_HOME: '/x/cache' })).toBe('/x/cache/gatehouse');
    expect(userCacheDir({ HOME: '/h', XDG_CACHE_HOME: 'relative/cache' })).toBe('/h/.cache/gatehouse');
    expect(userCacheDir({ HOME: '/h' })).toBe('/h/.cache/gatehouse');
  });
});
