import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import pkg from './package.json';
import { tomlData } from './scripts/vite-toml-data.mjs';

/**
 * The `gatehouse` CLI (out/main/cli.js) and the agent worker (out/main/worker.js), built apart from electron-vite's
 * main bundle so that they start fast: their npm dependencies are bundled in and tree-shaken (zod as a package loads
 * every locale: ~4x the CPU of what the CLI uses of it; the Anthropic and MCP SDKs are hundreds of files to find and
 * read), each subcommand (and each of the worker's lazily loaded parts) is a chunk loaded only when it runs, and
 * every chunk sits in out/main/cli-chunks where the V8 code cache (src/shared/node/code-cache.ts) finds it. Kept
 * external: web-tree-sitter (it finds its WebAssembly beside its own file), ws (optional native add-ons) and node-pty
 * (a native add-on). Runs after `electron-vite build`, which empties out/main. The desktop app's main, the SDK and the
 * bench keep electron-vite's bundle.
 */
const EXTERNAL = ['web-tree-sitter', 'ws', 'node-pty'];
const HERE = dirname(fileURLToPath(import.meta.url));

interface AstNode {
  type: string;
  start: number;
  end: number;
  source?: AstNode;
  value?: unknown;
  [key: string]: unknown;
}

/** The import("node:x") expressions of a parsed module (a Node builtin as a string literal), in source order. */
function builtinImports(node: unknown, found: AstNode[] = []): AstNode[] {
  if (Array.isArray(node)) for (const child of node) builtinImports(child, found);
  else if (node && typeof node === 'object') {
    const n = node as AstNode;
    const source = n.type === 'ImportExpression' ? n.source : undefined;
    if (source?.type === 'Literal' && typeof source.value === 'string' && source.value.startsWith('node:'))
      found.push(n);
    for (const [key, child] of Object.entries(n))
      if (key !== 'source' || n.type !== 'ImportExpression') builtinImports(child, found);
  }
  return found;
}

/**
 * Fails the build when a chunk keeps an import() expression: the code cache compiles chunks with vm.Script, which on
 * Node 20 has no dynamic-import callback for code read from the cache (the call would fail at run time). An import()
 * of a Node builtin (as the MCP SDK's pkce-challenge has) is made a require() first: a builtin is always there.
 */
function noDynamicImport(): Plugin {
  return {
    name: 'gatehouse:cli-no-dynamic-import',
    transform(code) {
      if (!code.includes('import(') || !code.includes('node:')) return null;
      const found = builtinImports(this.parse(code));
      if (found.length === 0) return null;
      let out = code;
      for (const n of found.reverse())
        out = `${out.slice(0, n.start)}Promise.resolve(require(${JSON.stringify(n.source!.value)}))${out.slice(n.end)}`;
      return { code: out, map: null };
    },
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        const kept = chunk.dynamicImports.filter((id) => !(id in bundle));
        if (kept.length)
          this.error(`${chunk.fileName}: import() of ${kept.join(', ')} stays an import(); require() it instead`);
      }
    },
  };
}

export default defineConfig({
  define: { __GATEHOUSE_VERSION__: JSON.stringify(pkg.version) },
  plugins: [tomlData(), noDynamicImport()],
  ssr: { noExternal: true },
  build: {
    ssr: true,
    outDir: 'out/main',
    emptyOutDir: false,
    target: 'node20',
    minify: false,
    sourcemap: false,
    reportCompressedSize: false,
    rollupOptions: {
      external: (id) => id.startsWith('node:') || EXTERNAL.some((e) => id === e || id.startsWith(`${e}/`)),
      input: { cli: resolve(HERE, 'src/main/shells/cli/index.ts'), worker: resolve(HERE, 'src/worker/index.ts') },
      output: {
        format: 'cjs',
        entryFileNames: '[name].js',
        chunkFileNames: 'cli-chunks/[name]-[hash].js',
        // ASCII only (non-ASCII escaped in code; JSDoc comments, which nobody reads in a bundle, left out; licences
        // kept): V8 stores such a source one byte per character, half of a two-byte one, and every process reads,
        // wraps (a copy) and keeps the source of each chunk it loads (test/unit/cli/cli-bundle-ascii.test.ts).
        charset: 'ascii',
        comments: { legal: true, annotation: false, jsdoc: false },
      },
    },
  },
});
