import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dispatchApi } from '../../../src/main/services/app/api-dispatch';
import type { ApiHandlers } from '../../../src/main/services/app/api-dispatch';
import { currentModelConfig, hasModelKey } from '../../../src/main/services/app/chat-model-config';
import type { SecretStore } from '../../../src/main/services/app/secret-store';
import { SettingsFileKeyStore } from '../../../src/main/services/app/secret-store';
import { createSettingsHandlers } from '../../../src/main/services/app/settings-handlers';
import { readUserTheme } from '../../../src/main/services/app/theme-settings';
import { GatehouseError } from '../../../src/shared/errors';
import { AppSettingsViewSchema } from '../../../src/shared/settings-contract';
import type { AppSettingsView } from '../../../src/shared/settings-contract';

// The Settings page's channels through dispatchApi (the entry the socket and IPC use), on a real temp config dir.

const KEY = 'sk-ant-test-0123456789-SECRETTAIL';
const COMMENTED =
  '# my settings, keep this comment\ntrust:\n  default: trust # inline too\nmodel:\n  # the model I pay for\n  name: claude-old\n';

let configDir: string;
let file: string;
let changes: number;
let wire: string[];

beforeEach(() => {
  configDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-settings-')));
  file = path.join(configDir, 'settings.yaml');
  changes = 0;
  wire = [];
});
afterEach(() => fs.rmSync(configDir, { recursive: true, force: true }));

/** A memory "secure store" standing in for the desktop's safeStorage one (tested in test/unit/electron). */
class MemorySecureStore implements SecretStore {
  readonly kind = 'secure-store' as const;
  readonly description = 'encrypted (test)';
  value: string | null = null;
  refuse: string | null = null;
  get(): string | null {
    return this.value;
  }
  set(key: string): void {
    if (this.refuse) throw new GatehouseError('FORBIDDEN', this.refuse);
    this.value = key;
  }
  clear(): void {
    this.value = null;
  }
  problem(): string | null {
    return this.refuse;
  }
}

function handlersFor(
  secrets: SecretStore,
  env: NodeJS.ProcessEnv = {},
): (channel: string, payload?: unknown) => Promise<AppSettingsView> {
  const handlers = createSettingsHandlers({
    configDir,
    env,
    secrets,
    changed: () => changes++,
  }) as unknown as ApiHandlers;
  return async (channel, payload = {}) => {
    try {
      const result = await dispatchApi(handlers, channel, payload);
      wire.push(JSON.stringify(result));
      return AppSettingsViewSchema.parse(result);
    } catch (err) {
      wire.push(JSON.stringify({ error: err instanceof Error ? err.message : String(err) }));
      throw err;
    }
  };
}

async function failure(p: Promise<unknown>): Promise<GatehouseError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GatehouseError);
  return err as GatehouseError;
}

const mode = (f: string): number => fs.statSync(f).mode & 0o777;

describe('settings handlers, browser shell (key in settings.yaml)', () => {
  it('saves the key into model.apiKey atomically, 0600, comments kept; the answer only says where it is', async () => {
    fs.writeFileSync(file, COMMENTED, { mode: 0o644 });
    const call = handlersFor(new SettingsFileKeyStore(configDir));
    const before = await call('getAppSettings');
    expect(before.apiKey).toMatchObject({ set: false, source: 'none', last4: null, storage: 'settings-file' });
    expect(before.model).toEqual({ saved: 'claude-old', effective: 'claude-old', source: 'settings-file' });

    const after = await call('saveApiKey', { apiKey: `  ${KEY}  ` });
    expect(after.apiKey).toMatchObject({ set: true, source: 'settings-file', last4: 'TAIL', storage: 'settings-file' });
    expect(after.apiKey.storageNote).toContain(file);
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toContain('# my settings, keep this comment');
    expect(text).toContain('# inline too');
    expect(text).toContain('# the model I pay for');
    expect(text).toContain(`apiKey: ${KEY}`);
    expect(mode(file)).toBe(0o600);
    expect(fs.readdirSync(configDir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(changes).toBe(1);
    // The chat picks it up for the next message (same precedence function).
    expect(await currentModelConfig({ configDir, env: {} })).toEqual({
      model: 'claude-old',
      provider: { apiKey: KEY },
    });

    const removed = await call('removeApiKey');
    expect(removed.apiKey).toMatchObject({ set: false, source: 'none' });
    expect(fs.readFileSync(file, 'utf8')).not.toContain('apiKey');
    expect(fs.readFileSync(file, 'utf8')).toContain('# the model I pay for');
    expect(await hasModelKey({ configDir, env: {} })).toBe(false);
    expect(wire.join('\n')).not.toContain(KEY);
    expect(wire.join('\n')).not.toContain(KEY.slice(0, 20));
  });

  it('the environment wins over a saved key, model and base URL, and the view says so', async () => {
    const env = {
      ANTHROPIC_API_KEY: 'env-key-0123456789-ENVV',
      ANTHROPIC_MODEL: 'env-model',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/env',
    };
    const call = handlersFor(new SettingsFileKeyStore(configDir), env);
    await call('saveApiKey', { apiKey: KEY });
    const view = await call('saveModelSettings', { name: 'file-model', baseURL: 'https://proxy.example.com/v1' });
    expect(view.apiKey).toMatchObject({ set: true, source: 'environment', last4: 'ENVV' });
    expect(view.model).toEqual({ saved: 'file-model', effective: 'env-model', source: 'environment' });
    expect(view.baseURL).toEqual({
      saved: 'https://proxy.example.com/v1',
      effective: 'http://127.0.0.1:9/env',
      source: 'environment',
    });
    expect((await currentModelConfig({ configDir, env })).provider.apiKey).toBe(env.ANTHROPIC_API_KEY);
    expect(wire.join('\n')).not.toContain(KEY);
    expect(wire.join('\n')).not.toContain(env.ANTHROPIC_API_KEY);
  });

  it('saves and removes model name and base URL; null removes, absent keeps', async () => {
    fs.writeFileSync(file, COMMENTED);
    const call = handlersFor(new SettingsFileKeyStore(configDir));
    let view = await call('saveModelSettings', { name: 'claude-new', baseURL: 'http://localhost:8080' });
    expect(view.model.saved).toBe('claude-new');
    expect(view.baseURL).toMatchObject({ saved: 'http://localhost:8080', source: 'settings-file' });
    view = await call('saveModelSettings', { baseURL: null });
    expect(view.model.saved).toBe('claude-new');
    expect(view.baseURL).toEqual({ saved: null, effective: null, source: 'none' });
    view = await call('saveModelSettings', { name: null });
    expect(view.model).toMatchObject({ saved: null, source: 'default' });
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toContain('# my settings, keep this comment');
    expect(text).not.toMatch(/^model:/m); // the emptied block went away
    expect(text).toContain('default: trust');
  });

  it('auto mode\u2019s classifier model: saved as auto.classifierModel, null goes back to the default; bad names refused', async () => {
    fs.writeFileSync(file, COMMENTED);
    const call = handlersFor(new SettingsFileKeyStore(configDir));
    expect((await call('getAppSettings')).classifierModel).toEqual({ saved: null, effective: 'claude-haiku-4-5' });
    let view = await call('saveAutoSettings', { classifierModel: 'claude-small-test' });
    expect(view.classifierModel).toEqual({ saved: 'claude-small-test', effective: 'claude-small-test' });
    expect(fs.readFileSync(file, 'utf8')).toMatch(/^auto:\n {2}classifierModel: claude-small-test$/m);
    expect(fs.readFileSync(file, 'utf8')).toContain('# my settings, keep this comment');
    await expect(call('saveAutoSettings', { classifierModel: 'two words' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    view = await call('saveAutoSettings', { classifierModel: null });
    expect(view.classifierModel).toEqual({ saved: null, effective: 'claude-haiku-4-5' });
    expect(fs.readFileSync(file, 'utf8')).not.toMatch(/^auto:/m);
    // A malformed block is reported and the default applies.
    fs.appendFileSync(file, 'auto:\n  classifierModel: 42\n');
    view = await call('getAppSettings');
    expect(view.classifierModel.effective).toBe('claude-haiku-4-5');
    expect(view.warnings.join('\n')).toMatch(/auto\.classifierModel/);
  });

  it('theme: saved as ui.theme, read back; malformed values fall back to system with a warning and stay in the file', async () => {
    const call = handlersFor(new SettingsFileKeyStore(configDir));
    expect((await call('getAppSettings')).theme).toBe('system');
    expect((await call('setTheme', { theme: 'dark' })).theme).toBe('dark');
    expect(fs.readFileSync(file, 'utf8')).toMatch(/ui:\n\s+theme: dark/);
    fs.writeFileSync(file, '# hi\nui:\n  theme: purple\n');
    const view = await call('getAppSettings');
    expect(view.theme).toBe('system');
    expect(view.warnings.join('\n')).toMatch(/settings\.yaml: ui\.theme must be light, dark or system, not "purple"/);
    expect(fs.readFileSync(file, 'utf8')).toBe('# hi\nui:\n  theme: purple\n');
    fs.writeFileSync(file, 'ui: dark\n');
    expect((await readUserTheme(configDir)).warnings[0]).toMatch(/ui must be a mapping/);
    // Saving over a block that is not a mapping is refused, and nothing is lost.
    const err = await failure(call('setTheme', { theme: 'light' }));
    expect(err.message).toMatch(/settings\.yaml: "ui" must be a mapping/);
    expect(fs.readFileSync(file, 'utf8')).toBe('ui: dark\n');
  });

  it('malformed payloads get a clear error naming the field, never echo the key, and change nothing', async () => {
    fs.writeFileSync(file, COMMENTED);
    const call = handlersFor(new SettingsFileKeyStore(configDir));
    const cases: Array<[string, unknown, RegExp]> = [
      ['saveApiKey', { apiKey: 'has space inside 0123456789' }, /saveApiKey\.apiKey: printable characters only/],
      ['saveApiKey', { apiKey: 'short' }, /saveApiKey\.apiKey: too short/],
      ['saveApiKey', { apiKey: 42 }, /saveApiKey\.apiKey/],
      ['saveApiKey', { apiKey: KEY, extra: 1 }, /saveApiKey/],
      ['saveModelSettings', { name: 'two words' }, /saveModelSettings\.name: letters, digits/],
      ['saveModelSettings', { name: '' }, /saveModelSettings\.name: enter a model name/],
      [
        'saveModelSettings',
        { baseURL: 'file:///etc/passwd' },
        /saveModelSettings\.baseURL: an http:\/\/ or https:\/\/ address/,
      ],
      ['saveModelSettings', { baseURL: 'not a url' }, /saveModelSettings\.baseURL/],
      ['setTheme', { theme: 'purple' }, /setTheme\.theme/],
      ['setTheme', {}, /setTheme\.theme/],
    ];
    for (const [channel, payload, message] of cases) {
      const err = await failure(call(channel, payload));
      expect(err.code, channel).toBe('BAD_REQUEST');
      expect(err.message, channel).toMatch(message);
      expect(err.message).not.toContain('0123456789');
    }
    expect(fs.readFileSync(file, 'utf8')).toBe(COMMENTED);
    expect(changes).toBe(0);
    expect(wire.join('\n')).not.toContain(KEY);
  });

  it("says that the desktop app's encrypted key cannot be used by this shell, and still saves one here", async () => {
    fs.writeFileSync(path.join(configDir, 'model-key.safe'), '{"version":1,"encrypted":"AAAA"}\n');
    const call = handlersFor(new SettingsFileKeyStore(configDir));
    const view = await call('getAppSettings');
    expect(view.apiKey).toMatchObject({ set: false, source: 'none' });
    expect(view.apiKey.unavailable).toMatch(
      /model-key\.safe\) is encrypted for the desktop app and cannot be used here/,
    );
    expect((await call('saveApiKey', { apiKey: KEY })).apiKey).toMatchObject({ set: true, source: 'settings-file' });
  });

  it('a settings file that is not valid YAML is not overwritten: the save fails with the file and reason', async () => {
    fs.writeFileSync(file, 'model:\n  name: [unclosed\n');
    const call = handlersFor(new SettingsFileKeyStore(configDir));
    const view = await call('getAppSettings');
    expect(view.warnings.join('\n')).toContain(file);
    const err = await failure(call('saveApiKey', { apiKey: KEY }));
    expect(err.message).toContain(`${file} is not valid YAML`);
    expect(err.message).not.toContain(KEY);
    expect(fs.readFileSync(file, 'utf8')).toBe('model:\n  name: [unclosed\n');
  });
});

describe('settings handlers, desktop (secure store)', () => {
  it('the key goes to the secure store, not the file; it outranks model.apiKey; remove clears both', async () => {
    fs.writeFileSync(file, 'model:\n  apiKey: file-key-0123456789-FILE\n');
    const store = new MemorySecureStore();
    const call = handlersFor(store);
    expect((await call('getAppSettings')).apiKey).toMatchObject({
      set: true,
      source: 'settings-file',
      storage: 'secure-store',
    });
    const saved = await call('saveApiKey', { apiKey: KEY });
    expect(saved.apiKey).toMatchObject({ set: true, source: 'secure-store', last4: 'TAIL' });
    expect(store.value).toBe(KEY);
    expect(fs.readFileSync(file, 'utf8')).not.toContain(KEY);
    expect((await currentModelConfig({ configDir, env: {}, storedKey: () => store.get() })).provider.apiKey).toBe(KEY);
    const removed = await call('removeApiKey');
    expect(removed.apiKey).toMatchObject({ set: false, source: 'none' });
    expect(store.value).toBeNull();
    expect(fs.readFileSync(file, 'utf8')).not.toContain('apiKey');
    expect(wire.join('\n')).not.toContain(KEY);
    expect(wire.join('\n')).not.toContain('file-key-0123456789');
  });

  it('a store that refuses (no OS encryption) fails the save with its reason; nothing is written in plain text', async () => {
    const store = new MemorySecureStore();
    store.refuse = 'the OS offers no encryption for stored secrets here';
    const call = handlersFor(store);
    expect((await call('getAppSettings')).apiKey.unavailable).toBe(store.refuse);
    const err = await failure(call('saveApiKey', { apiKey: KEY }));
    expect(err.message).toBe(store.refuse);
    expect(fs.existsSync(file)).toBe(false);
    expect(wire.join('\n')).not.toContain(KEY);
  });

  it('a short key never shows its last characters', async () => {
    const store = new MemorySecureStore();
    const call = handlersFor(store);
    expect((await call('saveApiKey', { apiKey: 'short-key-12' })).apiKey).toMatchObject({ set: true, last4: null });
  });
});
