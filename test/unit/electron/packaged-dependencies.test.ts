import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// What the packaged app loads at run time is what the main, worker and preload bundles require (the renderer is one
// bundle with everything inside). Every such package must be a production dependency (electron-builder ships only
// those: a missing one crashes the packaged app), and every production dependency must be one of them (anything
// else, e.g. a renderer-only package, would be shipped a second time in app.asar).

const root = path.resolve(__dirname, '../../..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};
const BUNDLES = ['out/main', 'out/main/chunks', 'out/main/cli-chunks', 'out/preload'];
// `npm run bench`'s entry: it loads Playwright (a devDependency) on demand and is never run by the app.
const NOT_RUN_BY_THE_APP = new Set(['out/main/bench.js']);

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

function requiredPackages(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const builtins = new Set(builtinModules);
  for (const dir of BUNDLES) {
    const abs = path.join(root, dir);
    if (!fs.existsSync(abs)) continue;
    for (const file of fs
      .readdirSync(abs)
      .filter((f) => /\.(c?js|mjs)$/.test(f) && !NOT_RUN_BY_THE_APP.has(`${dir}/${f}`))) {
      const text = fs.readFileSync(path.join(abs, file), 'utf8');
      // require("x"), import("x") and createRequire(...)("x") (loaded on demand; a module-level `const require =
      // createRequire(...)` is renamed require$1 by the bundler), require.resolve("x/file") and
      // createRequire(...).resolve("x/file") (files read by path: wasm). Not a require in a template literal: code that
      // a bundled library generates as text (ajv's standalone validators), never run by the app.
      for (const m of text.matchAll(
        /(?<!`)(?:\brequire(?:\$\d+)?(?:\.resolve)?|\bimport|\)\.resolve|createRequire\)\([^()]*\))\(\s*["']([^"'./][^"']*)["']\s*\)/g,
      )) {
        const spec = m[1]!;
        if (spec.startsWith('node:') || builtins.has(spec) || builtins.has(spec.split('/')[0]!) || spec === 'electron')
          continue;
        const name = packageName(spec);
        found.set(name, [...(found.get(name) ?? []), `${dir}/${file}`]);
      }
    }
  }
  return found;
}

describe('production dependencies = what the built main, worker and preload load', () => {
  const required = requiredPackages();

  it('finds the bundles (npm run build) and what they load', () => {
    expect(fs.existsSync(path.join(root, 'out/main/index.js')), 'run `npm run build` first').toBe(true);
    expect(required.has('zod')).toBe(true);
    expect(required.has('node-pty')).toBe(true);
  });

  it('every package the bundles load is a production dependency', () => {
    const missing = [...required.keys()].filter((name) => !(name in pkg.dependencies));
    expect(missing.map((m) => `${m} (loaded by ${required.get(m)!.join(', ')})`)).toEqual([]);
  });

  it('every production dependency is loaded by a bundle (no renderer-only package in dependencies)', () => {
    const unused = Object.keys(pkg.dependencies).filter((name) => !required.has(name));
    expect(unused).toEqual([]);
  });
});
