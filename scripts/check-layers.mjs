// The layer map of docs/architecture.md, checked on every import (static, dynamic, require), from the folders
// themselves: no list of folders is kept here.
//
//   src/main/core/<area>      the engine and its state: imports src/shared, src/sandbox and other core areas only,
//                             and the areas of core form no cycle (each area a node; the files at core's root one more)
//   src/main/services/<area>  what every shell shares: imports core (and shared, sandbox), never a shell
//   src/main/shells/<shell>   electron, web, cli, sdk: import services and core
//   src/sandbox               the command sandbox library (main and the worker use it): imports src/shared only
//   src/renderer, src/preload talk to main only through the contract: never main, the worker or the sandbox
//   bench/                    imports the product; nothing in src imports it
//
// No barrels: an `index.ts` is the entry of a bundle (listed below), never a folder's re-export list; a module is
// imported from the file that declares it.
//
// Usage: node scripts/check-layers.mjs [ROOT]   (exit 1 and one line per violation)
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));
const CODE = /\.(ts|tsx|mts|mjs)$/;
const SPECIFIER =
  /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*|\bexport\s+\*\s+from\s*)['"](\.{1,2}\/[^'"]*)['"]/g;
const EXTENSIONS = ['', '.ts', '.tsx', '.mts', '.mjs', '/index.ts', '/index.tsx'];

async function listFiles(dir) {
  const out = [];
  let entries;
  try {
    entries = await fs.readdir(path.join(ROOT, dir), { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) out.push(...(await listFiles(rel)));
    else if (CODE.test(e.name)) out.push(rel);
  }
  return out;
}

/** Where a file sits in the map: its layer and, inside core, services and shells, its area. */
function placeOf(file) {
  const m = /^src\/main\/(core|services|shells)\/(?:([^/]+)\/)?/.exec(file);
  if (m) return { layer: m[1], area: m[2] !== undefined && file.split('/').length > 4 ? m[2] : '(root)' };
  if (file.startsWith('src/main/')) return { layer: 'main-root', area: '(root)' };
  if (file.startsWith('src/sandbox/')) return { layer: 'sandbox', area: '' };
  if (file.startsWith('bench/')) return { layer: 'bench', area: '' };
  if (file.startsWith('src/')) return { layer: file.split('/')[1], area: '' };
  return { layer: 'other', area: '' };
}

const RANK = { core: 0, services: 1, shells: 2 };
/** The bundles' entries (electron.vite.config.ts, cli.vite.config.ts): the only index files. */
const ENTRIES = new Set([
  'src/main/shells/cli/index.ts',
  'src/main/shells/sdk/index.ts',
  'src/worker/index.ts',
  'src/preload/index.ts',
  'bench/index.ts',
]);

function violation(from, to) {
  const a = placeOf(from);
  const b = placeOf(to);
  if (a.layer === 'main-root') return 'src/main holds only core/, services/ and shells/';
  if (b.layer === 'bench' && a.layer !== 'bench') return 'the product never imports bench/';
  if (['renderer', 'preload'].includes(a.layer) && !['shared', a.layer].includes(b.layer))
    return `src/${a.layer} talks only through the contract (src/shared)`;
  if (a.layer === 'sandbox' && !['sandbox', 'shared'].includes(b.layer)) return 'src/sandbox imports only src/shared';
  if (a.layer in RANK && b.layer in RANK && RANK[b.layer] > RANK[a.layer])
    return `${a.layer} imports no ${b.layer === 'shells' ? 'shell' : 'service'} (docs/architecture.md)`;
  return null;
}

async function main() {
  const files = [...(await listFiles('src')), ...(await listFiles('bench'))];
  const known = new Set(files);
  const problems = [];
  const coreEdges = new Map(); // "a -> b" -> first import seen
  for (const file of files) {
    const text = await fs.readFile(path.join(ROOT, file), 'utf8');
    if (placeOf(file).layer === 'main-root') problems.push(`${file}: src/main holds only core/, services/ and shells/`);
    if (/(^|\/)index\.tsx?$/.test(file) && !ENTRIES.has(file))
      problems.push(`${file}: no index barrels: import each name from the module that declares it`);
    for (const match of text.matchAll(SPECIFIER)) {
      const base = path.posix.normalize(path.posix.join(path.posix.dirname(file), match[1]));
      const target = EXTENSIONS.map((e) => base + e).find((c) => known.has(c));
      if (!target) continue;
      const line = text.slice(0, match.index).split('\n').length;
      const why = violation(file, target);
      if (why) problems.push(`${file}:${line}: imports ${target}: ${why}`);
      const a = placeOf(file);
      const b = placeOf(target);
      if (a.layer === 'core' && b.layer === 'core' && a.area !== b.area) {
        const key = `${a.area} -> ${b.area}`;
        if (!coreEdges.has(key)) coreEdges.set(key, `${file}:${line}`);
      }
    }
  }
  for (const cycle of cycles(coreEdges)) {
    const steps = cycle.map((area, i) => {
      const next = cycle[(i + 1) % cycle.length];
      return `${area} -> ${next} (${coreEdges.get(`${area} -> ${next}`)})`;
    });
    problems.push(`core areas import each other in a cycle: ${steps.join(', ')}`);
  }
  if (problems.length > 0) {
    console.error(problems.join('\n'));
    console.error(`check-layers: ${problems.length} violation(s) of the layer map (docs/architecture.md)`);
    process.exit(1);
  }
}

/** One cycle per strongly connected group of areas (Tarjan), each as the areas in order. */
function cycles(edges) {
  const next = new Map();
  for (const key of edges.keys()) {
    const [a, b] = key.split(' -> ');
    next.set(a, [...(next.get(a) ?? []), b]);
  }
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  let counter = 0;
  const visit = (v) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const group = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1) groups.push(group);
    }
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  // Report each group as a real path round it: from its first area, follow edges inside the group back to the start.
  return groups.map((group) => {
    const inGroup = new Set(group);
    const start = group[group.length - 1];
    const pathFound = [start];
    const seen = new Set([start]);
    const walk = (v) => {
      for (const w of next.get(v) ?? []) {
        if (w === start && pathFound.length > 1) return true;
        if (!inGroup.has(w) || seen.has(w)) continue;
        seen.add(w);
        pathFound.push(w);
        if (walk(w)) return true;
        pathFound.pop();
      }
      return false;
    };
    walk(start);
    return pathFound;
  });
}

await main();
