import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import pkg from './package.json';
import { tomlData } from './scripts/vite-toml-data.mjs';

/**
 * The `gatehouse` CLI (out/main/cli.js), built apart from electron-vite's main bundle so that it can start fast:
 * its npm dependencies are bundled in and tree-shaken (zod as a package loads every locale: ~4x the CPU of what the
 * CLI uses of it), each subcommand is a chunk loaded only when it runs, and every chunk sits in out/main/cli-chunks
 * where the V8 code cache (src/main/cli/code-cache.ts) finds it. Kept external: web-tree-sitter (it finds its
 * WebAssembly beside its own file) and ws (optional native add-ons). Runs after `electron-vite build`, which empties
 * out/main. The worker, the desktop app and the SDK keep electron-vite's bundle.
 */
const EXTERNAL = ['web-tree-sitter', 'ws'];
const HERE = dirname(fileURLToPath(import.meta.url));

/**
 * Fails the build when a chunk keeps an import() expression: the code cache compiles chunks with vm.Script, which on
 * Node 20 has no dynamic-import callback for code read from the cache (the call would fail at run time).
 */
function noDynamicImport(): Plugin {
  return {
    name: 'gatehouse:cli-no-dynamic-import',
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
    ssr: resolve(HERE, 'src/main/cli/index.ts'),
    outDir: 'out/main',
    emptyOutDir: false,
    target: 'node20',
    minify: false,
    sourcemap: false,
    reportCompressedSize: false,
    rollupOptions: {
      external: (id) => id.startsWith('node:') || EXTERNAL.some((e) => id === e || id.startsWith(`${e}/`)),
      output: { format: 'cjs', entryFileNames: 'cli.js', chunkFileNames: 'cli-chunks/[name]-[hash].js' },
    },
  },
});
