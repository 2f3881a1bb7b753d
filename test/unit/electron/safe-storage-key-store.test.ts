import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { modelKeyFile, SafeStorageKeyStore } from '../../../src/main/electron/safe-storage-key-store';
import { GatehouseError } from '../../../src/shared/errors';
import { FakeSafeStorage } from './helpers/fake-electron';

// The desktop's model key store against the fake Electron safeStorage, on a real temp config dir.

const KEY = 'sk-ant-desktop-0123456789-abcd';
let configDir: string;
let safe: FakeSafeStorage;

beforeEach(() => {
  configDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-safe-store-')));
  safe = new FakeSafeStorage();
});
afterEach(() => fs.rmSync(configDir, { recursive: true, force: true }));

function thrown(fn: () => void): GatehouseError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(GatehouseError);
    return err as GatehouseError;
  }
  throw new Error('expected an error');
}

describe('SafeStorageKeyStore', () => {
  it('stores the key encrypted (never in plain text), atomically, mode 0600, and reads it back', () => {
    const store = new SafeStorageKeyStore(safe, configDir);
    expect(store.get()).toBeNull();
    expect(store.problem()).toBeNull();
    store.set(KEY);
    const file = modelKeyFile(configDir);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const raw = fs.readFileSync(file, 'utf8');
    expect(raw).not.toContain(KEY);
    expect(raw).not.toContain(Buffer.from(KEY).toString('base64'));
    expect(JSON.parse(raw)).toMatchObject({ version: 1 });
    expect(fs.readdirSync(configDir)).toEqual(['model-key.safe']); // no temp file left behind
    expect(new SafeStorageKeyStore(safe, configDir).get()).toBe(KEY);
    store.clear();
    expect(fs.existsSync(file)).toBe(false);
    expect(store.get()).toBeNull();
    store.clear(); // nothing to remove: fine
  });

  it('refuses to store when the OS has no encryption, or only basic_text; nothing is written', () => {
    safe.available = false;
    const store = new SafeStorageKeyStore(safe, configDir);
    const err = thrown(() => store.set(KEY));
    expect(err.code).toBe('FORBIDDEN');
    expect(err.message).toMatch(/no encryption.*will not store the key.*ANTHROPIC_API_KEY/);
    expect(err.message).not.toContain(KEY);
    expect(store.problem()).toBe(err.message);
    expect(fs.readdirSync(configDir)).toEqual([]);

    safe.available = true;
    safe.backend = 'basic_text';
    expect(thrown(() => store.set(KEY)).message).toMatch(/basic_text/);
    expect(fs.readdirSync(configDir)).toEqual([]);
  });

  it('a stored key that cannot be decrypted (tampered, another keychain, no keychain now) reads as none, with the reason', () => {
    const store = new SafeStorageKeyStore(safe, configDir);
    store.set(KEY);
    const file = modelKeyFile(configDir);
    fs.writeFileSync(file, JSON.stringify({ version: 1, encrypted: Buffer.from('garbage').toString('base64') }));
    expect(store.get()).toBeNull();
    expect(store.problem()).toMatch(/model-key\.safe: the stored key cannot be decrypted/);
    fs.writeFileSync(file, 'not json');
    expect(store.get()).toBeNull();
    store.set(KEY);
    safe.available = false;
    expect(store.get()).toBeNull();
    expect(store.problem()).toMatch(/no encryption/);
  });
});
