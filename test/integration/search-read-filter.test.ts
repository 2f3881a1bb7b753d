import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { judgeReadable } from '../../src/main/services/agent-runs/readable-files';
import { createPermissionEngine } from '../../src/main/core/permission/create-engine';
import { fixedTrust } from '../../src/main/core/permission/trust-oracle';
import type { PermissionEngine } from '../../src/main/core/permission/engine';
import type { RuleText } from '../../src/main/core/settings/settings-store';
import { createToolRegistry } from '../../src/worker/tools/tool-set';
import type { ToolContext } from '../../src/worker/tools/types';
import { findRipgrep } from '../../src/worker/tools/ripgrep';
import { DO, makeSandbox, type Sandbox } from '../unit/tools/helpers';

// The search tools' read filter with the real engine in this process (real files, real rules, real paths), through
// ripgrep and through the JS fallback: what read_file may not read without asking never shows in a search.

const rgPath = await findRipgrep();
const registries = {
  ripgrep: createToolRegistry({ ripgrepPath: rgPath }),
  js: createToolRegistry({ ripgrepPath: null }),
};

let sb: Sandbox;
let asked: string[][];
beforeEach(() => {
  sb = makeSandbox();
  asked = [];
  sb.write('src/app.ts', 'const key = 1;\n');
  sb.write('secrets/key.txt', 'key SECRET-VALUE-123\n');
  sb.write('secrets/sp ace ü.txt', 'key SECRET-SPACE\n');
  sb.write('secrets/-e', 'key SECRET-DASH\n');
  sb.write('.env', 'key=ENV-SECRET\n');
  sb.write('docs/my notes.txt', 'key in notes\n');
  sb.write('docs/ünïcødé.md', 'key unicode\n');
  sb.write('-e', 'key dash file\n');
  sb.write('..dots.txt', 'key dots\n');
  sb.write('.gatehouse/settings.yaml', 'permissions:\n  deny: ["Read(./secrets/**)"]\n');
  fs.symlinkSync(path.join(sb.root, 'secrets/key.txt'), path.join(sb.root, 'src/link-to-key.txt'));
  fs.symlinkSync('../.env', path.join(sb.root, 'docs/env-link'));
});
const engines: PermissionEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((e) => e.flushAudit())); // their last good settings are written first
  sb.cleanup();
});

async function engineFor(cliRules: RuleText[] = []): Promise<PermissionEngine> {
  const engine = await createPermissionEngine({
    projectRoot: sb.root,
    configDir: path.join(sb.base, 'config'),
    env: { HOME: sb.base },
    trust: fixedTrust(false),
    audit: null,
    cliRules,
  });
  engines.push(engine);
  return engine;
}

function ctxWith(engine: PermissionEngine): ToolContext {
  return sb.ctx({
    readable: async (paths) => {
      asked.push(paths);
      return (await judgeReadable(engine, { runId: 'r1', paths }, { agentMode: 'do' })).hidden;
    },
  });
}

const SECRETS = ['SECRET-VALUE-123', 'SECRET-SPACE', 'SECRET-DASH', 'ENV-SECRET'];
const body = (content: string): string[] => content.split('\n').filter((l) => !l.startsWith('('));

describe.each(Object.entries(registries))('search_code with the real engine (%s)', (_name, registry) => {
  it('a project-wide search leaves out the denied and the sensitive files, names them, shows none of their lines', async () => {
    expect(rgPath).not.toBeNull();
    const res = await registry.execute('search_code', { pattern: 'key' }, ctxWith(await engineFor()), DO);
    expect(res.isError).toBe(false);
    expect(body(res.content)).toEqual([
      '-e:1:key dash file',
      '..dots.txt:1:key dots',
      'docs/my notes.txt:1:key in notes',
      'docs/ünïcødé.md:1:key unicode',
      'src/app.ts:1:const key = 1;',
    ]);
    for (const s of SECRETS) expect(res.content).not.toContain(s);
    expect(res.content).toMatch(
      /\n\(4 files left out: reading them is denied or needs approval — .+; ask to read one with read_file\)$/,
    );
    // `..dots.txt` is a file inside the project (only `..` and `../x` leave it): found, not left out.
    for (const p of ['.env', 'secrets/-e', 'secrets/key.txt', 'secrets/sp ace ü.txt']) expect(res.content).toContain(p);
  });

  it('an allow rule for .env brings it back; the denied folder stays hidden', async () => {
    const res = await registry.execute(
      'search_code',
      { pattern: 'key' },
      ctxWith(await engineFor([{ behavior: 'allow', rule: 'Read(.env)' }])),
      DO,
    );
    expect(res.content).toContain('.env:1:key=ENV-SECRET');
    expect(res.content).toContain('(3 files left out: ');
    expect(res.content).not.toContain('SECRET-VALUE-123');
  });

  it('a hidden file never counts toward the match cap, and the note does not depend on what a hidden file contains', async () => {
    sb.write('secrets/many.txt', 'key\n'.repeat(600));
    const res = await registry.execute(
      'search_code',
      { pattern: 'NOTHING-MATCHES-THIS' },
      ctxWith(await engineFor()),
      DO,
    );
    expect(res.content.split('\n')[0]).toBe('No matches for /NOTHING-MATCHES-THIS/');
    expect(res.content).toContain('5 files left out');
    const many = await registry.execute('search_code', { pattern: 'key' }, ctxWith(await engineFor()), DO);
    expect(many.content).not.toContain('results capped');
    expect(body(many.content)).toHaveLength(5);
  });

  it('asks main once per batch of unique paths, not once per file', async () => {
    for (let i = 0; i < 1_200; i++) sb.write(`gen/f${i}.txt`, 'nothing\n');
    await registry.execute('search_code', { pattern: 'key' }, ctxWith(await engineFor()), DO);
    expect(asked).toHaveLength(3);
    expect(asked.every((b) => b.length <= 500 && new Set(b).size === b.length)).toBe(true);
  });

  it('a single-file search of a sensitive file shows nothing of it', async () => {
    const res = await registry.execute('search_code', { pattern: 'key', path: '.env' }, ctxWith(await engineFor()), DO);
    expect(res.content).toBe(
      'No matches for /key/\n(1 file left out: reading it is denied or needs approval — .env; ask to read one with read_file)',
    );
  });
});

describe('find_files with the real engine', () => {
  it('leaves out denied and sensitive files and symlinks to them, and names them', async () => {
    const res = await registries.js.execute('find_files', { pattern: '**/*' }, ctxWith(await engineFor()), DO);
    expect(body(res.content)).toEqual([
      '-e',
      '..dots.txt',
      '.gatehouse/settings.yaml',
      'docs/my notes.txt',
      'docs/ünïcødé.md',
      'src/app.ts',
    ]);
    const note = res.content.split('\n').at(-1) ?? '';
    expect(note).toBe(
      '(6 files left out: reading them is denied or needs approval — .env, docs/env-link, secrets/-e, secrets/key.txt, secrets/sp ace ü.txt, src/link-to-key.txt; ask to read one with read_file)',
    );
  });

  it('names at most 10 and counts the rest', async () => {
    for (let i = 10; i < 25; i++) sb.write(`secrets/s${i}.txt`, 'x\n');
    const res = await registries.js.execute('find_files', { pattern: 'secrets/*' }, ctxWith(await engineFor()), DO);
    expect(res.content.split('\n')[0]).toBe('No files match secrets/*');
    expect(res.content).toMatch(
      /^\(18 files left out: reading them is denied or needs approval — (?:[^,]+, ){9}[^,]+ and 8 more; ask to read one with read_file\)$/m,
    );
  });
});
