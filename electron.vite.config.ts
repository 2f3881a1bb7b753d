import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import pkg from './package.json';
import { tomlData } from './scripts/vite-toml-data.mjs';

const define = { __GATEHOUSE_VERSION__: JSON.stringify(pkg.version) };

const CSP_META = /(<meta\s+http-equiv="Content-Security-Policy"\s+content=")([^"]*)(")/i;
const INLINE_SCRIPT = /<script\b(?![^>]*\bsrc\s*=)[^>]*>([\s\S]*?)<\/script>/gi;

/**
 * Adds the sha256 of every inline script of `html` to the script-src of its CSP meta tag. For the served page of
 * `npm run dev` only: @vitejs/plugin-react injects an inline Fast Refresh preamble there, which the page's
 * `script-src 'self'` blocks (a blank window). Only those exact scripts are admitted (no 'unsafe-inline').
 */
export function allowInlineScripts(html: string): string {
  const hashes = [...html.matchAll(INLINE_SCRIPT)].map(
    (m) => `'sha256-${createHash('sha256').update(m[1]!).digest('base64')}'`,
  );
  if (hashes.length === 0) return html;
  if (!CSP_META.test(html))
    throw new Error('index.html: no Content-Security-Policy meta tag to admit the dev preamble in');
  return html.replace(CSP_META, (_all, start: string, policy: string, end: string) => {
    const directives = policy.split(';').map((d) => d.trim());
    const i = directives.findIndex((d) => d.startsWith('script-src ') || d === 'script-src');
    if (i === -1)
      throw new Error('index.html: the Content-Security-Policy has no script-src to admit the dev preamble in');
    directives[i] = [directives[i], ...hashes].join(' ');
    return `${start}${directives.join('; ')}${end}`;
  });
}

/** The dev server's (serve mode's) page only; `npm run build` output keeps the CSP exactly as written. */
export function devInlineScriptHashes(): Plugin {
  return {
    name: 'gatehouse:dev-csp-inline-scripts',
    apply: 'serve',
    transformIndexHtml: { order: 'post', handler: allowInlineScripts },
  };
}

// Four bundles: out/main (Electron main, the worker, the bench and the SDK: one core, several entries; the CLI is
// built beside them by cli.vite.config.ts),
// out/preload (one self-contained CommonJS file: a sandboxed preload cannot load ESM or modules)
// and out/renderer (React, served to Electron and to the browser shell alike).
export default defineConfig({
  main: {
    define,
    plugins: [tomlData()],
    build: {
      outDir: 'out/main',
      externalizeDeps: true,
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/main/shells/electron/main.ts'),
          bench: resolve(__dirname, 'bench/index.ts'),
          sdk: resolve(__dirname, 'src/main/shells/sdk/index.ts'),
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
    plugins: [react(), devInlineScriptHashes()],
    define,
    build: {
      outDir: 'out/renderer',
      // Minified: every window (and every browser-shell page) parses this bundle at start.
      minify: true,
      // The start bundle is ~850 KB minified (React, the markdown stack, highlighting): loaded from disk, never a network.
      chunkSizeWarningLimit: 1000,
      rollupOptions: { input: { index: resolve(__dirname, 'src/renderer/index.html') } },
    },
  },
});
