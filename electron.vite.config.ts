import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import pkg from './package.json';

const define = { __GATEHOUSE_VERSION__: JSON.stringify(pkg.version) };

// Four bundles: out/main (Electron main, the worker and the CLI: one core, several entries),
// out/preload (one self-contained CommonJS file: a sandboxed preload cannot load ESM or modules)
// and out/renderer (React, served to Electron and to the browser shell alike).
export default defineConfig({
  main: {
    define,
    build: {
      outDir: 'out/main',
      externalizeDeps: true,
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/main/electron/main.ts'),
          worker: resolve(__dirname, 'src/worker/index.ts'),
          cli: resolve(__dirname, 'src/main/cli/index.ts'),
          bench: resolve(__dirname, 'src/main/bench/index.ts'),
          sdk: resolve(__dirname, 'src/main/sdk/index.ts'),
        },
      },
    },
  },
  preload: {
    define,
    build: {
      outDir: 'out/preload',
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs', codeSplitting: false },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    plugins: [react()],
    define,
    build: {
      outDir: 'out/renderer',
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
    },
  },
});
