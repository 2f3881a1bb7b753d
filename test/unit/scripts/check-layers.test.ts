import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../../..');
const SCRIPT = path.join(ROOT, 'scripts/check-layers.mjs');
const run = promisify(execFile);

let dir = '';
afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = '';
});

/** A small tree laid out like the product's, with the files given (path -> source). */
function tree(files: Record<string, string>): string {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-layers-'));
  const base: Record<string, string> = {
    'src/shared/contract.ts': 'export const X = 1;\n',
    'src/main/core/settings/store.ts': "import { X } from '../../../shared/contract';\nexport const S = X;\n",
    'src/main/core/permission/engine.ts': "import { S } from '../settings/store';\nexport const E = S;\n",
    'src/main/services/app/core.ts': "import { E } from '../../core/permission/engine';\nexport const A = E;\n",
    'src/main/shells/cli/index.ts': "import { A } from '../../services/app/core';\nexport const C = A;\n",
    'src/sandbox/wrap.ts': "import { X } from '../shared/contract';\nexport const W = X;\n",
    'bench/index.ts': "import { C } from '../src/main/shells/cli/index';\nexport const B = C;\n",
  };
  for (const [file, text] of Object.entries({ ...base, ...files })) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
  return dir;
}

async function check(root: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [SCRIPT, root]);
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

describe('check-layers: the layer map of docs/architecture.md', () => {
  it('passes on the repository itself', async () => {
    expect(await check(ROOT)).toEqual({ code: 0, out: '' });
  });

  it('passes on a tree that keeps the map', async () => {
    expect((await check(tree({}))).code).toBe(0);
  });

  it('refuses a static import of a shell from the core', async () => {
    const r = await check(
      tree({ 'src/main/core/permission/leak.ts': "import { C } from '../../shells/cli/index';\n" }),
    );
    expect(r.code).toBe(1);
    expect(r.out).toContain(
      'src/main/core/permission/leak.ts:1: imports src/main/shells/cli/index.ts: core imports no shell',
    );
  });

  it('refuses a dynamic import of a shell from the core', async () => {
    const r = await check(
      tree({ 'src/main/core/settings/late.ts': "export const f = async () => import('../../shells/cli/index');\n" }),
    );
    expect(r.code).toBe(1);
    expect(r.out).toContain(
      'src/main/core/settings/late.ts:1: imports src/main/shells/cli/index.ts: core imports no shell',
    );
  });

  it('refuses a service from the core, a shell from a service, bench from the product, main from the sandbox, the sandbox from the renderer', async () => {
    const r = await check(
      tree({
        'src/main/core/fs/a.ts': "import { A } from '../../services/app/core';\n",
        'src/main/services/app/b.ts': "const c = require('../../shells/cli/index');\n",
        'src/main/shells/cli/c.ts': "export { B } from '../../../../bench/index';\n",
        'src/sandbox/d.ts': "import { E } from '../main/core/permission/engine';\n",
        'src/renderer/src/e.ts': "import { W } from '../../sandbox/wrap';\n",
      }),
    );
    expect(r.code).toBe(1);
    expect(r.out).toContain('core/fs/a.ts:1: imports src/main/services/app/core.ts: core imports no service');
    expect(r.out).toContain('services/app/b.ts:1: imports src/main/shells/cli/index.ts: services imports no shell');
    expect(r.out).toContain('shells/cli/c.ts:1: imports bench/index.ts: the product never imports bench/');
    expect(r.out).toContain('src/sandbox/d.ts:1: imports src/main/core/permission/engine.ts: src/sandbox imports only');
    expect(r.out).toContain('src/renderer/src/e.ts:1: imports src/sandbox/wrap.ts: src/renderer talks only through');
  });

  it('refuses a cycle between core areas, static or dynamic, and names its imports', async () => {
    const r = await check(
      tree({ 'src/main/core/settings/back.ts': "export const g = () => import('../permission/engine');\n" }),
    );
    expect(r.code).toBe(1);
    expect(r.out).toMatch(
      /core areas import each other in a cycle: .*settings -> permission \(src\/main\/core\/settings\/back\.ts:1\)/,
    );
    expect(r.out).toMatch(/permission -> settings \(src\/main\/core\/permission\/engine\.ts:1\)/);
  });

  it('refuses an index barrel that is not a bundle entry', async () => {
    const r = await check(tree({ 'src/main/core/settings/index.ts': "export { S } from './store';\n" }));
    expect(r.code).toBe(1);
    expect(r.out).toContain('src/main/core/settings/index.ts: no index barrels');
  });

  it('refuses a file loose in src/main', async () => {
    const r = await check(tree({ 'src/main/paths.ts': 'export const P = 1;\n' }));
    expect(r.code).toBe(1);
    expect(r.out).toContain('src/main/paths.ts: src/main holds only core/, services/ and shells/');
  });
});
