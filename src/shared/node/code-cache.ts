import fs from 'node:fs';
import Module from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

/**
 * Compiled code kept between runs of the CLI and of the agent worker, so that a one-shot command (a hook calls
 * `gatehouse` once per tool call) and each new worker (one per session or window, one per `gatehouse run`) do not
 * parse and compile their bundle again each time. Most of what it saves a worker is the functions a run compiles
 * lazily, which the cache written at exit holds.
 *
 * This module is the module loader's own: it reads a chunk's cached code synchronously where `require` reads the
 * chunk itself, and writes at exit, when nothing else runs. That is why the worker's rule against synchronous calls
 * leaves it out (eslint.config.mjs).
 *
 * On Node 22+ this is Node's own compile cache (`module.enableCompileCache`). Node 20 has none, so the chunks of the
 * CLI and the worker (out/main/cli-chunks, and nothing else) are compiled through `vm.Script` with V8's code cache.
 * Such a script has no dynamic-import callback (Node 20 drops it for code read from a cache), which is why only the
 * chunks qualify: the bundler turns every import() in them into require() (cli.vite.config.ts fails the build
 * otherwise). The cached data is read before compiling and, when there was none or V8 rejected it, written when the
 * process exits (by then it also holds the functions this run compiled lazily). A cache file is V8 bytecode that this
 * process will run, so it lives only in the user's own cache folder (owned by this user, writable by no one else, else
 * no cache), is written atomically (temp file + rename), and is keyed by what the code depends on: the chunk's name
 * (which holds a hash of its content), its length, the Node version and architecture, and the V8 flags and command of
 * this run. Any failure means compiling as usual, never an error.
 */

export interface CodeCacheOptions {
  /** The bundle's chunk folder: only files below it go through the cache. */
  chunkDir: string;
  /** The user's cache folder for Gatehouse. */
  cacheDir: string;
  /** What else the compiled code depends on in this run (the subcommand and its V8 flags), as a file-name part. */
  variant: string;
}

export type CodeCacheMode = 'node' | 'v8' | 'off';

const STALE_MS = 30 * 24 * 3600 * 1000;

interface CompilingModule {
  exports: unknown;
}
type Compile = (this: CompilingModule, content: string, filename: string) => unknown;

/**
 * `base/...parts`, created when missing, when it and every folder from `base` down to it is a real folder (no
 * symlink) that this user owns and no one else can write to (so no one else can swap what is in it); else null.
 */
function privateDir(base: string, ...parts: string[]): string | null {
  const dir = path.join(base, ...parts);
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const levels = parts.map((_, i) => path.join(base, ...parts.slice(0, i + 1)));
    for (const level of [base, ...levels]) {
      const st = fs.lstatSync(level);
      if (!st.isDirectory()) return null;
      if (process.platform !== 'win32' && (st.uid !== process.getuid?.() || (st.mode & 0o022) !== 0)) return null;
    }
    return dir;
  } catch {
    return null;
  }
}

function writeAtomically(file: string, data: Buffer): void {
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    fs.writeFileSync(tmp, data, { mode: 0o600 });
    fs.renameSync(tmp, file);
  } catch {
    fs.rmSync(tmp, { force: true });
  }
}

/** Drops cache files nobody rewrote for a month (old builds' chunks). */
function prune(dir: string, now: number): void {
  for (const name of fs.readdirSync(dir)) {
    const file = path.join(dir, name);
    const st = fs.lstatSync(file);
    if (st.isFile() && now - st.mtimeMs > STALE_MS) fs.rmSync(file, { force: true });
  }
}

let enabled: CodeCacheMode | null = null;

/**
 * Turns the code cache on for this process, once (a served command that falls back to running in-process asks
 * twice); says which one is in use.
 */
export function enableCodeCache(options: CodeCacheOptions): CodeCacheMode {
  enabled ??= enable(options);
  return enabled;
}

function enable(options: CodeCacheOptions): CodeCacheMode {
  const nodeCache = (Module as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache;
  if (typeof nodeCache === 'function') {
    const dir = privateDir(options.cacheDir, 'node-compile-cache');
    if (!dir) return 'off';
    nodeCache(dir);
    return 'node';
  }
  const dir = privateDir(options.cacheDir, 'v8-code', `${process.version}-${process.arch}`);
  if (!dir) return 'off';
  const prefix = path.resolve(options.chunkDir) + path.sep;
  const toWrite: { script: vm.Script; file: string }[] = [];
  const proto = Module.prototype as unknown as { _compile: Compile };
  const original = proto._compile;
  proto._compile = function compileWithCache(this: CompilingModule, content: string, filename: string): unknown {
    if (!filename.startsWith(prefix) || content.startsWith('#!')) return original.call(this, content, filename);
    const file = path.join(dir, `${path.basename(filename, '.js')}.${content.length}.${options.variant}.bin`);
    let cachedData: Buffer | undefined;
    try {
      cachedData = fs.readFileSync(file);
    } catch {
      cachedData = undefined;
    }
    const script = new vm.Script(Module.wrap(content), { filename, cachedData });
    if (cachedData === undefined || script.cachedDataRejected === true) toWrite.push({ script, file });
    const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    return wrapper.call(
      this.exports,
      this.exports,
      Module.createRequire(filename),
      this,
      filename,
      path.dirname(filename),
    );
  };
  process.once('exit', () => {
    if (toWrite.length === 0) return;
    try {
      prune(dir, Date.now());
      for (const { script, file } of toWrite) writeAtomically(file, script.createCachedData());
    } catch {
      // a cache that cannot be written is only slower next time
    }
  });
  return 'v8';
}
