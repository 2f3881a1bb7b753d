import fs from 'node:fs';
import { createRequire } from 'node:module';
import v8 from 'node:v8';
import type { Parser, Tree } from 'web-tree-sitter';

/**
 * The one bash parser of the process: web-tree-sitter with the tree-sitter-bash grammar, loaded once.
 * `initShellParser()` must have been awaited before `parseShell()` is called; after that parsing is synchronous.
 */
let loading: Promise<void> | null = null;
let parser: Parser | null = null;

// Works from source (vitest, ESM) and from the CommonJS bundle (rollup rewrites import.meta.url there). The library
// is required when the grammar loads, not when this module does: the CLI's entry holds this module, and
// `gatehouse --version` should not load web-tree-sitter.
const require = createRequire(import.meta.url);

/** The two WebAssembly files the parser is made of: web-tree-sitter's runtime and the bash grammar. */
export interface ShellParserWasm {
  runtime: Uint8Array<ArrayBuffer>;
  grammar: Uint8Array<ArrayBuffer>;
}

/** Where the two WebAssembly files are. */
export function shellParserWasmFiles(): { runtime: string; grammar: string } {
  return {
    runtime: require.resolve('web-tree-sitter/web-tree-sitter.wasm'),
    grammar: require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'),
  };
}

async function readWasm(): Promise<ShellParserWasm> {
  const files = shellParserWasmFiles();
  const [runtime, grammar] = await Promise.all([
    fs.promises.readFile(files.runtime),
    fs.promises.readFile(files.grammar),
  ]);
  return { runtime, grammar };
}

/**
 * Both modules are compiled at once with `WebAssembly.compile`, which V8 does on background threads: when the bytes
 * are given, compiling starts before this function first awaits, so a process can load its own code meanwhile.
 */
async function load(given?: ShellParserWasm): Promise<void> {
  // Liftoff only, in every process that parses (the app's main process, `gatehouse web`/`run`/`rpc`, the SDK, the
  // one-shot CLI, the decision helper): V8's optimising tier compiles the grammar's big functions on background
  // threads, at a CPU cost per process far above the few microseconds it saves a parse (`npm run bench -- --only
  // permission` shows both). A process compiles no other WebAssembly. Must be set before the modules below are
  // compiled.
  v8.setFlagsFromString('--liftoff-only');
  const { Language, Parser: ParserClass } = require('web-tree-sitter') as typeof import('web-tree-sitter');
  const wasm = given ?? (await readWasm());
  const runtimeModule = WebAssembly.compile(wasm.runtime);
  const grammarModule = WebAssembly.compile(wasm.grammar);
  grammarModule.catch(() => undefined); // observed below; a failure fails the load there
  await new Promise<void>((resolve, reject) => {
    ParserClass.init({
      // Emscripten's hook: instantiate the runtime from the module compiled above (it calls back instance, module).
      instantiateWasm(
        imports: WebAssembly.Imports,
        done: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void,
      ) {
        runtimeModule
          .then((module) => WebAssembly.instantiate(module, imports).then((i) => done(i, module)))
          .catch(reject);
        return {};
      },
    }).then(resolve, reject);
  });
  const language = Language.loadSync(await grammarModule);
  const p = new ParserClass();
  p.setLanguage(language);
  parser = p;
}

/**
 * Loads web-tree-sitter and the bash grammar once; concurrent and repeated calls share the same promise. `wasm`, the
 * files' bytes when the caller already has them, lets compiling start at once (see the CLI's start).
 */
export function initShellParser(wasm?: ShellParserWasm): Promise<void> {
  if (loading === null) {
    loading = load(wasm).catch((err: unknown) => {
      loading = null; // a failed load may be retried
      throw err;
    });
  }
  return loading;
}

/** True once the grammar is loaded. */
export function shellParserReady(): boolean {
  return parser !== null;
}

/** Parses `source` as bash. The caller must call `tree.delete()` when done with it. */
export function parseShell(source: string): Tree {
  if (parser === null) throw new Error('shell parser not initialised: await initShellParser() first');
  const tree = parser.parse(source);
  if (tree === null) throw new Error('shell parser returned no tree');
  return tree;
}
