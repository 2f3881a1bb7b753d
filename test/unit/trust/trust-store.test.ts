import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GatehouseError } from '../../../src/shared/errors';
import { TrustStore } from '../../../src/main/core/trust/trust-store';
import { mkdirs, tempDir, write } from './helpers';

let root: string;
let config: string;
const store = (extra: Partial<ConstructorParameters<typeof TrustStore>[0]> = {}) =>
  new TrustStore({ configDir: config, ...extra });
const p = (...s: string[]) => path.join(root, ...s);

beforeEach(() => {
  root = tempDir();
  config = p('config');
  mkdirs(root, 'config', 'work/app/src/deep', 'work/app/vendor', 'work/other', 'elsewhere');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('which decision applies', () => {
  it('is undecided (default ask, untrusted, needs a decision) when nothing is stored', async () => {
    const s = await store().check(p('work/app'));
    expect(s).toMatchObject({
      trusted: false,
      decision: 'default',
      default: 'ask',
      needsDecision: true,
      storedAt: null,
      scope: null,
    });
    expect(s.storeFile).toBe(p('config/trust.json'));
  });

  it('a directory decision covers the folder and its subfolders, not its siblings or parent', async () => {
    const t = store();
    await t.set(p('work/app'), 'directory');
    expect(await t.check(p('work/app'))).toMatchObject({
      trusted: true,
      decision: 'directory',
      storedAt: p('work/app'),
    });
    expect(await t.check(p('work/app/src/deep'))).toMatchObject({
      trusted: true,
      decision: 'directory',
      storedAt: p('work/app'),
    });
    expect((await t.check(p('work/other'))).trusted).toBe(false);
    expect((await t.check(p('work'))).trusted).toBe(false);
  });

  it('parent scope trusts the parent and everything below, keyed at the parent, and says so', async () => {
    const t = store();
    await t.set(p('work/app'), 'parent');
    const other = await t.check(p('work/other'));
    expect(other).toMatchObject({
      trusted: true,
      decision: 'parent',
      scope: 'parent',
      storedAt: p('work'),
      grantedFrom: p('work/app'),
    });
    expect((await t.check(p('work/app/src'))).storedAt).toBe(p('work'));
    expect((await t.check(p('elsewhere'))).trusted).toBe(false);
    const file = JSON.parse(fs.readFileSync(p('config/trust.json'), 'utf8'));
    expect(file.entries).toEqual([
      expect.objectContaining({ path: p('work'), scope: 'parent', grantedFrom: p('work/app') }),
    ]);
    expect(file.version).toBe(1);
  });

  it("the nearest decision wins: a child's never beats a trusted parent, and a trusted child beats a never parent", async () => {
    const t = store();
    await t.set(p('work/app'), 'parent');
    await t.set(p('work/app/vendor'), 'never');
    expect(await t.check(p('work/app/vendor'))).toMatchObject({
      trusted: false,
      decision: 'never',
      storedAt: p('work/app/vendor'),
    });
    expect(await t.check(p('work/app/vendor/x/y'))).toMatchObject({ trusted: false, decision: 'never' });
    expect((await t.check(p('work/app'))).trusted).toBe(true);
    await t.set(p('work'), 'never');
    await t.set(p('work/app'), 'directory');
    expect((await t.check(p('work/app/src'))).trusted).toBe(true);
    expect((await t.check(p('work/other'))).trusted).toBe(false);
  });

  it('judges a symlinked folder by its real path, both ways', async () => {
    const t = store();
    fs.symlinkSync(p('work/app'), p('link-to-app'));
    fs.symlinkSync(p('work/other'), p('work/app/link-to-other'));
    await t.set(p('link-to-app'), 'directory');
    expect(await t.check(p('work/app'))).toMatchObject({ trusted: true, storedAt: p('work/app') });
    expect((await t.list()).map((e) => e.path)).toEqual([p('work/app')]);
    // a link inside a trusted folder that points out of it is not trusted by that folder
    expect(await t.check(p('work/app/link-to-other'))).toMatchObject({ trusted: false, path: p('work/other') });
    // `..` tricks resolve too
    expect((await t.check(p('work/app/src/../../app'))).trusted).toBe(true);
    expect((await t.check(p('work/app/../other'))).trusted).toBe(false);
  });

  it('folds case where the file system ignores it, and not where it does not', async () => {
    const folded = store({ caseInsensitive: true });
    await folded.set(p('work/app'), 'directory');
    expect((await folded.check(p('work/app').toUpperCase())).trusted).toBe(true);
    const exact = store({ caseInsensitive: false });
    expect((await exact.check(p('work/app').toUpperCase())).trusted).toBe(false);
  });

  it('a folder that does not exist is judged by its nearest existing ancestor', async () => {
    const t = store();
    await t.set(p('work'), 'directory');
    expect((await t.check(p('work/not/yet/here'))).trusted).toBe(true);
    await expect(t.set(p('work/missing'), 'directory')).rejects.toThrow(/not found/);
    write(p('work/file.txt'), 'x');
    await expect(t.set(p('work/file.txt'), 'directory')).rejects.toThrow(/not a folder/);
  });
});

describe('session trust', () => {
  it('lives in one TrustStore (one process) only, and is never written', async () => {
    const t = store();
    const status = await t.set(p('work/app'), 'session');
    expect(status).toMatchObject({ trusted: true, decision: 'session', scope: 'session' });
    expect((await t.check(p('work/app/src'))).trusted).toBe(true);
    expect(fs.existsSync(p('config/trust.json'))).toBe(false);
    expect((await store().check(p('work/app'))).trusted).toBe(false);
  });

  it('at one folder, the later of a session and a stored decision applies (also when stored by another process)', async () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const app = store({ now: () => now });
    const cli = store({ now: () => now });
    await cli.set(p('work/app'), 'never');
    now = new Date('2026-01-01T00:01:00Z');
    await app.set(p('work/app'), 'session');
    expect((await app.check(p('work/app'))).decision).toBe('session');
    now = new Date('2026-01-01T00:02:00Z');
    await cli.set(p('work/app'), 'never');
    expect(await app.check(p('work/app'))).toMatchObject({ trusted: false, decision: 'never' });
  });

  it('a stored decision at the same folder replaces the session one', async () => {
    const t = store();
    await t.set(p('work/app'), 'session');
    await t.set(p('work/app'), 'never');
    expect(await t.check(p('work/app'))).toMatchObject({ trusted: false, decision: 'never' });
  });
});

describe('revoke', () => {
  it('takes effect on the next check, in this process and in another one', async () => {
    const app = store();
    const cli = store();
    await cli.set(p('work/app'), 'directory');
    expect((await app.check(p('work/app'))).trusted).toBe(true);
    await cli.revoke(p('work/app'));
    expect(await app.check(p('work/app'))).toMatchObject({ trusted: false, decision: 'default' });
    expect((await cli.check(p('work/app'))).trusted).toBe(false);
  });

  it('removes a parent grant that trusts the folder, and a session grant', async () => {
    const t = store();
    await t.set(p('work/app'), 'parent');
    const removed = await t.revoke(p('work/app'));
    expect(removed).toEqual([expect.objectContaining({ path: p('work'), scope: 'parent' })]);
    expect((await t.check(p('work/app'))).trusted).toBe(false);
    await t.set(p('work/app'), 'session');
    await t.revoke(p('work/app'));
    expect((await t.check(p('work/app'))).trusted).toBe(false);
  });

  it("removes a never keyed at the folder, but never an ancestor's never", async () => {
    const t = store();
    await t.set(p('work'), 'never');
    await t.set(p('work/app'), 'never');
    await t.revoke(p('work/app'));
    expect(await t.check(p('work/app'))).toMatchObject({ decision: 'never', storedAt: p('work') });
    expect(await t.list()).toHaveLength(1);
  });

  it('of a folder with nothing stored changes nothing', async () => {
    const t = store();
    await t.set(p('work/other'), 'directory');
    expect(await t.revoke(p('work/app'))).toEqual([]);
    expect((await t.check(p('work/other'))).trusted).toBe(true);
  });
});

describe('the global default', () => {
  it('comes from trust.default in the user settings', async () => {
    const t = store();
    write(p('config/settings.yaml'), 'trust:\n  default: trust\n');
    expect(await t.check(p('work/app'))).toMatchObject({
      trusted: true,
      decision: 'default',
      default: 'trust',
      needsDecision: false,
    });
    write(p('config/settings.yaml'), 'trust:\n  default: never\n');
    expect(await t.check(p('work/app'))).toMatchObject({ trusted: false, default: 'never', needsDecision: false });
    await t.set(p('work/app'), 'directory');
    expect((await t.check(p('work/app'))).trusted).toBe(true);
  });

  it('an edit applies to the next check, also one of the same size right after a check (same inode, size, mtime)', async () => {
    const t = store();
    const file = p('config/settings.yaml');
    write(file, 'trust:\n  default: trust\n');
    const { mtime } = fs.statSync(file);
    expect((await t.check(p('work/app'))).trusted).toBe(true);
    write(file, 'trust:\n  default: never\n');
    fs.utimesSync(file, mtime, mtime);
    expect(await t.check(p('work/app'))).toMatchObject({ trusted: false, default: 'never' });
  });

  it('a malformed settings file or value never widens trust: ask applies and the problem is reported', async () => {
    const t = store();
    write(p('config/settings.yaml'), 'trust:\n  default: yes please\n');
    expect(await t.check(p('work/app'))).toMatchObject({
      trusted: false,
      default: 'ask',
      settingsError: expect.stringMatching(/trust, ask or never/),
    });
    write(p('config/settings.yaml'), 'trust: [default: trust\n');
    expect(await t.check(p('work/app'))).toMatchObject({
      trusted: false,
      default: 'ask',
      settingsError: expect.stringMatching(/not valid YAML/),
    });
  });

  it('setDefault writes settings.yaml keeping its comments and other keys', async () => {
    write(p('config/settings.yaml'), '# my settings\npermissions:\n  allow: ["Bash(ls)"] # keep me\n');
    await store().setDefault('never');
    const text = fs.readFileSync(p('config/settings.yaml'), 'utf8');
    expect(text).toContain('# my settings');
    expect(text).toContain('# keep me');
    expect(text).toMatch(/trust:\n\s+default: never/);
    expect(await store().trustDefault()).toBe('never');
    write(p('config/settings.yaml'), 'permissions: [broken\n');
    await expect(store().setDefault('trust')).rejects.toThrow(/not valid YAML/);
    expect(fs.readFileSync(p('config/settings.yaml'), 'utf8')).toBe('permissions: [broken\n');
  });
});

describe('a corrupt store', () => {
  const corrupt = '{"version":1,"entries":[{"path":"/x","scope":"directory",';

  it('makes every folder untrusted (even with default trust), reports the error and keeps a copy', async () => {
    const t = store();
    await t.set(p('work/app'), 'directory');
    write(p('config/settings.yaml'), 'trust:\n  default: trust\n');
    write(p('config/trust.json'), corrupt);
    const s = await t.check(p('work/app'));
    expect(s).toMatchObject({ trusted: false, decision: 'error' });
    expect(s.error?.reason).toMatch(/not valid JSON/);
    expect(await t.lastError()).toMatchObject({ path: p('config/trust.json') });
    const copies = fs.readdirSync(p('config')).filter((f) => f.startsWith('trust.json.corrupt-'));
    expect(copies).toHaveLength(1);
    expect(fs.readFileSync(p('config', copies[0] ?? ''), 'utf8')).toBe(corrupt);
    expect(s.error?.copy).toBe(p('config', copies[0] ?? ''));
    // checking again, or from another process, does not pile up copies
    await t.check(p('work/other'));
    await store().check(p('work/other'));
    expect(fs.readdirSync(p('config')).filter((f) => f.startsWith('trust.json.corrupt-'))).toHaveLength(1);
  });

  it('a wrong shape or an unknown version is corrupt too (never half-applied)', async () => {
    write(
      p('config/trust.json'),
      JSON.stringify({
        version: 1,
        entries: [{ path: p('work/app'), scope: 'directory', grantedAt: 'x', lastOpened: null, grantedFrom: null }],
      }),
    );
    expect(await store().check(p('work/app'))).toMatchObject({ trusted: false, decision: 'error' });
    write(p('config/trust.json'), JSON.stringify({ version: 2, entries: [] }));
    expect((await store().check(p('work/app'))).decision).toBe('error');
    write(
      p('config/trust.json'),
      JSON.stringify({
        version: 1,
        entries: [
          {
            path: 'relative/path',
            scope: 'directory',
            grantedAt: new Date().toISOString(),
            lastOpened: null,
            grantedFrom: null,
          },
        ],
      }),
    );
    expect((await store().lastError())?.reason).toMatch(/absolute/);
  });

  it('refuses writes instead of dropping the decisions in it, until an explicit repair keeps the valid ones', async () => {
    const t = store();
    await t.set(p('work/app'), 'directory');
    await t.set(p('work/other'), 'never');
    const good = JSON.parse(fs.readFileSync(p('config/trust.json'), 'utf8'));
    good.entries.push({ path: p('elsewhere'), scope: 'sometimes' });
    const bad = JSON.stringify(good);
    write(p('config/trust.json'), bad);
    let err: unknown;
    try {
      await t.set(p('elsewhere'), 'directory');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(GatehouseError);
    expect(String(err)).toMatch(/corrupt.*nothing was changed/);
    expect(fs.readFileSync(p('config/trust.json'), 'utf8')).toBe(bad);
    expect(await t.touch(p('work/app'))).toBe(false);
    await expect(t.revoke(p('work/app'))).rejects.toThrow(/corrupt/);
    const result = await t.repair();
    expect(result).toMatchObject({ kept: 2, dropped: 1 });
    expect(fs.readFileSync(result.copy ?? '', 'utf8')).toBe(bad);
    expect(await t.lastError()).toBeNull();
    expect((await t.check(p('work/app'))).trusted).toBe(true);
    expect((await t.check(p('work/other'))).decision).toBe('never');
  });
});

describe('bookkeeping', () => {
  it('touch records when a folder was last opened on the decision that applies', async () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const t = store({ now: () => now });
    await t.set(p('work/app'), 'directory');
    now = new Date('2026-02-01T00:00:00Z');
    expect(await t.touch(p('work/app/src'))).toBe(true);
    expect((await t.list())[0]).toMatchObject({
      grantedAt: '2026-01-01T00:00:00.000Z',
      lastOpened: '2026-02-01T00:00:00.000Z',
    });
    expect(await t.touch(p('elsewhere'))).toBe(false);
  });

  it('list shows stored and session decisions; isTrusted answers the permission engine', async () => {
    const t = store();
    await t.set(p('work/app'), 'directory');
    await t.set(p('elsewhere'), 'session');
    expect((await t.list()).map((e) => [e.path, e.scope, e.stored])).toEqual([
      [p('elsewhere'), 'session', false],
      [p('work/app'), 'directory', true],
    ]);
    expect(await t.isTrusted(p('work/app'))).toBe(true);
    expect(await t.isTrusted(p('work/other'))).toBe(false);
  });

  it('writes the store with owner-only permissions and leaves no lock or temp file behind', async () => {
    await store().set(p('work/app'), 'directory');
    expect(fs.statSync(p('config/trust.json')).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(p('config'))).toEqual(['trust.json']);
  });
});

describe('too-wide grants are refused', () => {
  it('never trusts the whole file system, nor the home folder through a parent grant', async () => {
    const t = store({ env: { HOME: p('work') } });
    await expect(t.set('/', 'directory')).rejects.toThrow(/whole file system/);
    await expect(t.set('/', 'session')).rejects.toThrow(/whole file system/);
    await expect(t.set(path.parse(root).root + root.split(path.sep)[1], 'parent')).rejects.toThrow(/file-system root/);
    expect(await t.parentToTrust(p('work/app'))).toBeNull();
    await expect(t.set(p('work/app'), 'parent')).rejects.toThrow(/home folder/);
    expect(await t.list()).toEqual([]);
    expect(await t.parentToTrust(p('work/app/src'))).toBe(p('work/app'));
    await t.set('/', 'never');
    expect((await t.check(p('elsewhere'))).decision).toBe('never');
  });
});
