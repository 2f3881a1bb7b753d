import { createRequire } from 'node:module';
import { Language, Parser, type Tree } from 'web-tree-sitter';

/**
 * The one bash parser of the process: web-tree-sitter with the tree-sitter-bash grammar, loaded once.
 * `initShellParser()` must have been awaited before `parseShell()` is called; after that parsing is synchronous.
 */
let loading: Promise<void> | null = null;
let parser: Parser | null = null;

function bashWasmPath(): string {
  // Works from source (vitest, ESM) and from the CommonJS bundle (rollup rewrites import.meta.url there).
  const require = createRequire(import.meta.url);
  return require.resolve('tree-sitter-bash/tree-sitter-bash.wasm');
}

async function load(): Promise<void> {
  await Parser.init();
  const language = await Language.load(bashWasmPath());
  const p = new Parser();
  p.setLanguage(language);
  parser = p;
}

/** Loads web-tree-sitter and the bash grammar once; concurrent and repeated calls share the same promise. */
export function initShellParser(): Promise<void> {
  if (loading === null) {
    loading = load().catch((err: unknown) => {
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
