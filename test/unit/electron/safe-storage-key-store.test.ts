import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { modelKeyFile, SafeStorageKeyStore } from '../../../src/main/shells/electron/safe-storage-key-store';
import { GatehouseError } from '../../../src/shared/errors';
import { FakeSafeStorage } from './helpers/fake-electron';

// The desktop's model key store against the fake Electron safeStorage (asynchronous API only), on a real temp
// config dir.

const KEY = 'sk-ant-desktop-0123456789-abcd';
let configDir: string;
let safe: FakeSafeStorage;

beforeEach(() => {
  configDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-safe-store-')));
  safe = new FakeSafeStorage();
});
afterEach(() => fs.rmSync(configDir, { recursive: true, force: true }));

async function opened(): Promise<SafeStorageKeyStore> {
  const store = new SafeStorageKeyStore(safe, configDir);
  await store.ready();
  return store;
}

async function rejection(promise: Promise<unknown>): Promise<GatehouseError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(GatehouseError);
    return err as GatehouseError;
  }
  throw new Error('expected an error');
}

describe('SafeStorageKeyStore', () => {
  it('stores the key encrypted (never in plain text), atomically, mode 0600, and reads it back in a new store', async () => {
    const store = await opened();
    expect(store.get()).toBeNull();
    expect(store.problem()).toBeNull();
    await store.set(KEY);
    expect(store.get()).toBe(KEY);
    const file = modelKeyFile(configDir);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const raw = fs.readFileSync(file, 'utf8');
    expect(raw).not.toContain(KEY);
    expect(raw).not.toContain(Buffer.from(KEY).toString('base64'));
    expect(JSON.parse(raw)).toMatchObject({ version: 1 });
    expect(fs.readdirSync(configDir)).toEqual(['model-key.safe']); // no temp file left behind
    expect((await opened()).get()).toBe(KEY);
    await store.clear();
    expect(fs.existsSync(file)).toBe(false);
    expect(store.get()).toBeNull();
    await store.clear(); // nothing to remove: fine
  });

  it('get() is only current after ready(): the key is decrypted once, in the background', async () => {
    await (await opened()).set(KEY);
    const store = new SafeStorageKeyStore(safe, configDir);
    expect(store.get()).toBeNull();
    await store.ready();
    expect(store.get()).toBe(KEY);
    const calls = safe.calls;
    for (let i = 0; i < 5; i++) store.get();
    expect(safe.calls).toBe(calls);
  });

  it('refuses to store when the OS has no encryption, or only basic_text; nothing is written', async () => {
    safe.available = false;
    const store = await opened();
    expect(store.problem()).toMatch(/no encryption.*will not store the key.*ANTHROPIC_API_KEY/);
    const err = await rejection(store.set(KEY));
    expect(err.code).toBe('FORBIDDEN');
    expect(err.message).toMatch(/no encryption.*will not store the key.*ANTHROPIC_API_KEY/);
    expect(err.message).not.toContain(KEY);
    expect(store.problem()).toBe(err.message);
    expect(fs.readdirSync(configDir)).toEqual([]);

    safe.available = true;
    safe.backend = 'basic_text';
    expect((await rejection(store.set(KEY))).message).toMatch(/basic_text/);
    expect(fs.readdirSync(configDir)).toEqual([]);
  });

  it('a stored key that cannot be decrypted (tampered, another keychain, no keychain now) reads as none, with the reason', async () => {
    await (await opened()).set(KEY);
    const file = modelKeyFile(configDir);
    fs.writeFileSync(file, JSON.stringify({ version: 1, encrypted: Buffer.from('garbage').toString('base64') }));
    let store = await opened();
    expect(store.get()).toBeNull();
    expect(store.problem()).toMatch(/model-key\.safe: the stored key cannot be decrypted/);
    fs.writeFileSync(file, 'not json');
    expect((await opened()).get()).toBeNull();
    await store.set(KEY);
    safe.available = false;
    store = await opened();
    expect(store.get()).toBeNull();
    expect(store.problem()).toMatch(/no encryption/);
  });

  it('a key the OS asks to re-encrypt (its key was rotated) is stored again under the new one, and still works', async () => {
    await (await opened()).set(KEY);
    const file = modelKeyFile(configDir);
    const before = fs.readFileSync(file, 'utf8');
    safe.rotated = true;
    const store = await opened();
    expect(store.get()).toBe(KEY);
    const after = fs.readFileSync(file, 'utf8');
    expect(after).not.toBe(before);
    expect(
      Buffer.from((JSON.parse(after) as { encrypted: string }).encrypted, 'base64')
        .subarray(0, 3)
        .toString(),
    ).toBe('v11');
    expect((await opened()).get()).toBe(KEY);
  });
});
