import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withStateLock } from '../../../src/main/core/fs/state-lock';
import { flushLastGoodWrites, LastGoodCache } from '../../../src/main/core/settings/last-good-cache';
import { closest } from '../../../src/shared/closest';
import { EMPTY_SETTINGS } from '../../../src/main/core/settings/settings-schema';

let dir: string;
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-lastgood-unit-')));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const withDeny = { ...EMPTY_SETTINGS, deny: ['Bash(git push:*)'] };
const withAllow = { ...EMPTY_SETTINGS, allow: ['Bash'] };

/** What a new process would find recorded for `settingsFile`. */
async function recorded(settingsFile: string): Promise<unknown> {
  const cache = new LastGoodCache(dir);
  await cache.load(settingsFile);
  return cache.get(settingsFile);
}

describe('LastGoodCache', () => {
  it('a version seen earlier never replaces one seen later (a slow process cannot put back an older allow)', async () => {
    const fast = new LastGoodCache(dir);
    const slow = new LastGoodCache(dir);
    fast.set('/p/settings.yaml', withDeny, 2_000n);
    await fast.flush();
    slow.set('/p/settings.yaml', withAllow, 1_000n);
    await slow.flush();
    expect(await recorded('/p/settings.yaml')).toEqual(withDeny);
  });

  it('keeps one entry per settings file: many writers of different files lose none', async () => {
    const caches = Array.from({ length: 20 }, () => new LastGoodCache(dir));
    caches.forEach((c, i) => c.set(`/p${i}/settings.yaml`, { ...EMPTY_SETTINGS, deny: [`Bash(d${i})`] }, 1n));
    await Promise.all(caches.map((c) => c.flush()));
    for (let i = 0; i < 20; i++)
      expect(await recorded(`/p${i}/settings.yaml`)).toMatchObject({ deny: [`Bash(d${i})`] });
  });

  it("a stopping process waits for every cache's writes, also one waiting for the lock another process holds", async () => {
    const cache = new LastGoodCache(dir);
    const entry = cache.entryFile('/p/settings.yaml');
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    // Another holder of the entry's lock (as another process would be): the write waits for it in the background.
    const holding = withStateLock(entry, () => held);
    await vi.waitFor(() => expect(fs.existsSync(`${entry}.lock`)).toBe(true));
    cache.set('/p/settings.yaml', withDeny, 1n);
    const order: string[] = [];
    const flushing = flushLastGoodWrites().then(() => order.push('flushed'));
    await new Promise(setImmediate); // a flush that did not wait would have resolved by now
    order.push('released');
    release();
    await holding;
    await flushing;
    expect(order).toEqual(['released', 'flushed']);
    // Done means done: the entry is written and the lock is gone (the folder can be removed at once).
    expect(await recorded('/p/settings.yaml')).toEqual(withDeny);
    expect(fs.readdirSync(path.dirname(entry)).filter((f) => f.endsWith('.lock'))).toEqual([]);
  });

  it('reads an entry of the earlier single-file cache when it has no entry of its own', async () => {
    fs.writeFileSync(path.join(dir, 'settings-last-good.json'), JSON.stringify({ '/old/settings.yaml': withDeny }));
    expect(await recorded('/old/settings.yaml')).toEqual(withDeny);
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
