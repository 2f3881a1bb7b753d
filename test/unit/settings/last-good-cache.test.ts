import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LastGoodCache } from '../../../src/main/settings/last-good-cache';
import { closest } from '../../../src/shared/closest';
import { EMPTY_SETTINGS } from '../../../src/main/settings/settings-schema';

let dir: string;
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-lastgood-unit-')));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const withDeny = { ...EMPTY_SETTINGS, deny: ['Bash(git push:*)'] };
const withAllow = { ...EMPTY_SETTINGS, allow: ['Bash'] };

describe('LastGoodCache', () => {
  it('a version seen earlier never replaces one seen later (a slow process cannot put back an older allow)', async () => {
    const fast = new LastGoodCache(dir);
    const slow = new LastGoodCache(dir);
    fast.set('/p/settings.yaml', withDeny, 2_000n);
    await fast.flush();
    slow.set('/p/settings.yaml', withAllow, 1_000n);
    await slow.flush();
    expect(new LastGoodCache(dir).get('/p/settings.yaml')).toEqual(withDeny);
  });

  it('keeps one entry per settings file: many writers of different files lose none', async () => {
    const caches = Array.from({ length: 20 }, () => new LastGoodCache(dir));
    caches.forEach((c, i) => c.set(`/p${i}/settings.yaml`, { ...EMPTY_SETTINGS, deny: [`Bash(d${i})`] }, 1n));
    await Promise.all(caches.map((c) => c.flush()));
    const fresh = new LastGoodCache(dir);
    for (let i = 0; i < 20; i++) expect(fresh.get(`/p${i}/settings.yaml`)?.deny).toEqual([`Bash(d${i})`]);
  });

  it('reads an entry of the earlier single-file cache when it has no entry of its own', () => {
    fs.writeFileSync(path.join(dir, 'settings-last-good.json'), JSON.stringify({ '/old/settings.yaml': withDeny }));
    expect(new LastGoodCache(dir).get('/old/settings.yaml')).toEqual(withDeny);
  });
});

describe('suggestions for unknown keys', () => {
  it('finds the near miss and nothing for unrelated words', () => {
    expect(closest('Deny', ['allow', 'ask', 'deny'])).toBe('deny');
    expect(closest('permission', ['permissions', 'trust'])).toBe('permissions');
    expect(closest('alow', ['allow', 'ask', 'deny'])).toBe('allow');
    expect(closest('additionalDirectory', ['mode', 'additionalDirectories'])).toBe('additionalDirectories');
    expect(closest('colour', ['allow', 'ask', 'deny', 'mode'])).toBeNull();
  });
});
