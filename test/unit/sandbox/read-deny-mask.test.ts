import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RuleSet } from '../../../src/main/core/permission/rules/rule-set';
import { parseRule } from '../../../src/main/core/rule-syntax/parse-rule';
import type { LoadedRule } from '../../../src/main/core/rule-syntax/rule-types';
import { CANCELLED, readDenyMask, TOO_MANY_FILES } from '../../../src/main/core/sandbox/read-deny-mask';
import { readDenyRules, statusForCommand } from '../../../src/main/core/sandbox/sandbox-gate';
import { describeViolation } from '../../../src/sandbox/violation';

let root: string;
let project: string;
let home: string;

function write(rel: string, text = 'x'): void {
  const file = path.join(root, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

function rules(deny: string[], behavior: 'deny' | 'ask' = 'deny'): RuleSet {
  const loaded = deny.map((text): LoadedRule => {
    const parsed = parseRule(text);
    if (!parsed.ok) throw new Error(parsed.reason);
    return { ...parsed.rule, behavior, source: 'user', file: null };
  });
  return new RuleSet(loaded, { projectRoot: project, home });
}

const hidden = (set: RuleSet, extra: Partial<{ additionalDirectories: string[] }> = {}) =>
  readDenyMask({ rules: set, projectRoot: project, home, additionalDirectories: extra.additionalDirectories ?? [] });

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-read-deny-')));
  project = path.join(root, 'home', 'project');
  home = path.join(root, 'home');
  fs.mkdirSync(project, { recursive: true });
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('readDenyMask', () => {
  it('hides a literal base whole when the rule covers what is in it, and walks it when the rule picks files', async () => {
    write('home/project/secrets/a.key');
    write('home/project/secrets/readme.txt');
    write('home/project/keys/a.key');
    write('home/project/keys/notes.txt');
    const mask = await hidden(rules(['Read(./secrets/**)', 'Read(keys/*.key)']));
    expect(mask.hidden).toEqual(
      [
        { path: path.join(project, 'keys', 'a.key'), rule: 'Read(keys/*.key)' },
        { path: path.join(project, 'secrets'), rule: 'Read(./secrets/**)' },
      ].sort((a, b) => a.path.length - b.path.length),
    );
    expect(mask.incomplete).toBeUndefined();
  });

  it('a folder named by a pattern that does not cover its contents is not hidden whole', async () => {
    write('home/project/secrets/readme.txt');
    expect((await hidden(rules(['Read(./secrets)']))).hidden).toEqual([]);
  });

  it('name patterns are looked for in the project and additional directories, gitignored and vendored folders included', async () => {
    const extra = path.join(root, 'extra');
    write('home/project/.gitignore', '.env\nnode_modules\n');
    write('home/project/.env');
    write('home/project/node_modules/pkg/server.pem');
    write('extra/deep/.env');
    write('home/project/src/app.ts');
    const mask = await hidden(rules(['Read(.env)', 'Read(*.pem)']), { additionalDirectories: [extra] });
    expect(mask.hidden.map((h) => h.path).sort()).toEqual(
      [
        path.join(project, '.env'),
        path.join(project, 'node_modules', 'pkg', 'server.pem'),
        path.join(extra, 'deep', '.env'),
      ].sort(),
    );
  });

  it('home and absolute bases; a missing base hides nothing', async () => {
    write('home/.private/token');
    write('abs/dir/secret');
    const mask = await hidden(
      rules(['Read(~/.private/**)', `Read(/${path.join(root, 'abs', 'dir', 'secret')})`, 'Read(./nothing/**)']),
    );
    expect(mask.hidden.map((h) => h.path).sort()).toEqual(
      [path.join(root, 'abs', 'dir', 'secret'), path.join(home, '.private')].sort(),
    );
  });

  it('only deny rules hide: ask rules and the sensitive-file defaults do not', async () => {
    write('home/project/.env');
    write('home/project/id_rsa');
    expect((await hidden(rules(['Read(.env)'], 'ask'))).hidden).toEqual([]);
    expect((await hidden(rules([]))).hidden).toEqual([]);
  });

  it("a rule naming the read_file tool itself applies to that tool only: commands' files are not hidden", async () => {
    write('home/project/README.md');
    write('home/project/secrets/a.key');
    expect((await hidden(rules(['read_file(README.md)', 'read_file(./secrets/**)', 'read_file']))).hidden).toEqual([]);
    expect((await hidden(rules(['read_file']))).incomplete).toBeUndefined();
    const available = { enabled: true, available: true, mechanism: 'bubblewrap' };
    expect(statusForCommand(available, new Set(), rules(['read_file(README.md)']))).toBe(available);
  });

  it('a symlink whose name or target is denied hides the target (not followed further)', async () => {
    write('outside/plain.txt');
    fs.symlinkSync(path.join(root, 'outside', 'plain.txt'), path.join(project, '.env'));
    fs.symlinkSync(path.join(root, 'outside'), path.join(project, 'loop-free'));
    expect((await hidden(rules(['Read(.env)']))).hidden).toEqual([
      { path: path.join(root, 'outside', 'plain.txt'), rule: 'Read(.env)' },
    ]);
  });

  it('fails closed past the entry bound, and for a bare Read deny', async () => {
    for (let i = 0; i < 30; i++) write(`home/project/d${i % 3}/f${i}.txt`);
    const set = rules(['Read(*.pem)']);
    const bounded = await readDenyMask(
      { rules: set, projectRoot: project, home, additionalDirectories: [] },
      { maxEntries: 10 },
    );
    expect(bounded.incomplete).toBe(TOO_MANY_FILES);
    expect(
      (await readDenyMask({ rules: set, projectRoot: project, home, additionalDirectories: [] }, { maxEntries: 100 }))
        .incomplete,
    ).toBeUndefined();
    expect((await hidden(rules(['Read']))).incomplete).toMatch(/denies every read/);
  });
});

describe('the violation text for a hidden path', () => {
  const ctx = {
    projectRoot: '/p',
    writableRoots: ['/p'],
    protectedPaths: [],
    home: '/h',
    allowedDomains: [],
    denials: [],
    hidden: [
      { path: '/p/secrets', rule: 'Read(./secrets/**)' },
      { path: '/p/.env', rule: 'Read(.env)' },
    ],
  };
  it('names the rule when an error line names a hidden path, however it is spelled', () => {
    const rule = 'secrets is hidden by the Read deny rule Read(./secrets/**)';
    for (const line of [
      'cat: secrets/key.txt: No such file or directory',
      "PermissionError: [Errno 13] Permission denied: './secrets/k'",
      'grep: /p/secrets/a: Permission denied',
    ]) {
      expect(describeViolation(line, 1, ctx), line).toContain(rule);
    }
    expect(describeViolation("PermissionError: [Errno 13] Permission denied: '.env'", 1, ctx)).toContain(
      '.env is hidden by the Read deny rule Read(.env)',
    );
    expect(describeViolation('bash: secrets/new: Read-only file system', 1, ctx)).toContain(rule);
  });
  it('says nothing for other names or lines without an error', () => {
    expect(describeViolation('cat: mysecrets/x: No such file or directory', 1, ctx)).toBeNull();
    expect(describeViolation('secrets/key.txt is fine', 0, ctx)).toBeNull();
    expect(describeViolation('cat: .envrc: No such file or directory', 1, ctx)).toBeNull();
  });
});

describe('a Read deny rule added during a prompt', () => {
  it('makes the run’s commands ask (status unavailable) until the next prompt recomputes the mask', () => {
    const available = { enabled: true, available: true, mechanism: 'bubblewrap' };
    const before = readDenyRules(rules(['Read(./secrets/**)']));
    expect(statusForCommand(available, before, rules(['Read(./secrets/**)']))).toBe(available);
    expect(statusForCommand(available, before, rules([]))).toBe(available); // a removed rule: the mask only hides more
    const changed = statusForCommand(available, before, rules(['Read(./secrets/**)', 'Read(.env)']));
    expect(changed).toMatchObject({ enabled: true, available: false });
    expect(changed?.reason).toContain('the Read deny rule Read(.env) was added during this prompt');
    const off = { enabled: false, available: false };
    expect(statusForCommand(off, before, rules(['Read(.env)']))).toBe(off); // the user turned the sandbox off
    expect(statusForCommand(available, undefined, rules(['Read(.env)']))).toBe(available);
  });
});

describe('readDenyMask is asynchronous and can be cancelled', () => {
  it('answers "cancelled" (incomplete: commands ask) when its signal aborts', async () => {
    for (let i = 0; i < 300; i++) write(`home/project/d${i % 20}/f${i}.txt`);
    const set = rules(['Read(*.pem)']);
    const controller = new AbortController();
    const pending = readDenyMask(
      { rules: set, projectRoot: project, home, additionalDirectories: [] },
      { signal: controller.signal },
    );
    controller.abort();
    const cancelled = await pending;
    expect(cancelled.incomplete).toBe(CANCELLED);
    const whole = await readDenyMask({ rules: set, projectRoot: project, home, additionalDirectories: [] });
    expect(whole.incomplete).toBeUndefined();
    expect(whole.entries).toBeGreaterThan(300);
  });
});
