import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_MODEL,
  modelConfigSources,
  resolveModelConfig,
} from '../../../src/main/services/agent-runs/model-config';
import { readUserModelSettings } from '../../../src/main/services/agent-runs/model-settings';

let root: string;
let configDir: string;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-model-config-')));
  configDir = path.join(root, 'config');
  fs.mkdirSync(configDir);
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function writeUserSettings(text: string): string {
  const file = path.join(configDir, 'settings.yaml');
  fs.writeFileSync(file, text);
  return file;
}

const FULL = 'model:\n  name: settings-model\n  baseURL: http://127.0.0.1:9/settings\n  apiKey: settings-key\n';

describe('resolveModelConfig precedence', () => {
  it('settings alone supply model, key and base URL', async () => {
    writeUserSettings(FULL);
    const { settings, warnings } = await readUserModelSettings(configDir);
    expect(warnings).toEqual([]);
    expect(resolveModelConfig({}, {}, settings)).toEqual({
      model: 'settings-model',
      provider: { apiKey: 'settings-key', baseURL: 'http://127.0.0.1:9/settings' },
    });
  });

  it('the environment beats the settings; --model beats ANTHROPIC_MODEL', async () => {
    writeUserSettings(FULL);
    const { settings } = await readUserModelSettings(configDir);
    const env = {
      ANTHROPIC_API_KEY: 'env-key',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/env',
      ANTHROPIC_MODEL: 'env-model',
    };
    expect(resolveModelConfig(env, {}, settings)).toEqual({
      model: 'env-model',
      provider: { apiKey: 'env-key', baseURL: 'http://127.0.0.1:9/env' },
    });
    expect(resolveModelConfig(env, { model: 'cli-model' }, settings).model).toBe('cli-model');
  });

  it('blank environment values fall through to the settings; nothing at all gives the default model', async () => {
    writeUserSettings(FULL);
    const { settings } = await readUserModelSettings(configDir);
    const blank = { ANTHROPIC_API_KEY: '  ', ANTHROPIC_BASE_URL: '', ANTHROPIC_MODEL: ' ' };
    expect(resolveModelConfig(blank, {}, settings).provider.apiKey).toBe('settings-key');
    expect(resolveModelConfig(blank, {}, settings).model).toBe('settings-model');
    expect(resolveModelConfig({ ANTHROPIC_API_KEY: 'k' }).model).toBe(DEFAULT_MODEL);
    expect(resolveModelConfig({ ANTHROPIC_API_KEY: 'k' }).provider).toEqual({ apiKey: 'k' });
  });

  it("the desktop's stored key sits between the environment and the file; the sources say which won", async () => {
    writeUserSettings(FULL);
    const { settings } = await readUserModelSettings(configDir);
    expect(resolveModelConfig({}, {}, settings, 'stored-key').provider.apiKey).toBe('stored-key');
    expect(resolveModelConfig({ ANTHROPIC_API_KEY: 'env-key' }, {}, settings, 'stored-key').provider.apiKey).toBe(
      'env-key',
    );
    expect(resolveModelConfig({}, { apiKey: 'explicit-key' }, settings, 'stored-key').provider.apiKey).toBe(
      'explicit-key',
    );
    expect(resolveModelConfig({}, {}, settings, '  ').provider.apiKey).toBe('settings-key');
    expect(modelConfigSources({}, {}, settings, 'stored-key')).toEqual({
      model: { value: 'settings-model', source: 'settings-file' },
      apiKey: { value: 'stored-key', source: 'secure-store' },
      baseURL: { value: 'http://127.0.0.1:9/settings', source: 'settings-file' },
    });
    expect(modelConfigSources({}, {}, {}, null)).toEqual({
      model: { value: DEFAULT_MODEL, source: 'default' },
      apiKey: null,
      baseURL: null,
    });
  });

  it('no key anywhere is an error that says where to put one', async () => {
    writeUserSettings('model:\n  name: only-a-name\n');
    const { settings } = await readUserModelSettings(configDir);
    expect(() => resolveModelConfig({}, {}, settings)).toThrow(/no Anthropic API key.*model\.apiKey/);
  });

  it('a missing settings file, or one without a model block, is empty and silent', async () => {
    expect(await readUserModelSettings(configDir)).toEqual({ settings: {}, warnings: [] });
    writeUserSettings('permissions:\n  allow: ["Read"]\n');
    expect(await readUserModelSettings(configDir)).toEqual({ settings: {}, warnings: [] });
  });
});

describe('a malformed model block', () => {
  const cases: [string, string, RegExp][] = [
    ['key is not a string', 'model:\n  apiKey: 12345\n', /model\.apiKey/],
    ['unknown key (typo)', 'model:\n  api_key: sk-typo\n', /model/],
    ['base URL not http(s)', 'model:\n  apiKey: k\n  baseURL: file:///etc/passwd\n', /model\.baseURL/],
    ['block is a string', 'model: claude\n', /model/],
    ['YAML does not parse', 'model:\n  apiKey: [unclosed\n', /settings\.yaml/],
  ];
  for (const [name, text, where] of cases) {
    it(`${name}: ignored as a whole, with a warning naming the file`, async () => {
      const file = writeUserSettings(text);
      const { settings, warnings } = await readUserModelSettings(configDir);
      expect(settings).toEqual({});
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(file);
      expect(warnings[0]).toMatch(where);
      expect(warnings[0]).toContain('ignored');
      // Nothing of the malformed block leaks into the config: the environment's key is used.
      expect(resolveModelConfig({ ANTHROPIC_API_KEY: 'env-key' }, {}, settings)).toEqual({
        model: DEFAULT_MODEL,
        provider: { apiKey: 'env-key' },
      });
    });
  }
});
