import fs from 'node:fs';
import path from 'node:path';
import { userSettingsFile } from '../../core/settings/settings-locations';
import { editUserSettingsYaml } from '../../core/settings/user-settings-yaml';

/** The desktop's encrypted key (written by its safeStorage store; only Electron can decrypt it). */
export function desktopKeyFile(configDir: string): string {
  return path.join(configDir, 'model-key.safe');
}

/**
 * Where the app keeps the model's API key that the Settings page saves. The desktop shell injects one backed by
 * Electron's safeStorage (encrypted with the OS keychain); elsewhere the key goes to the user's settings.yaml.
 * Nothing here is ever sent to the page: handlers report only whether a key is set.
 */
export interface SecretStore {
  /** `secure-store`: encrypted by the OS; `settings-file`: plain text in the user's settings.yaml (mode 0600). */
  readonly kind: 'secure-store' | 'settings-file';
  /** Plain words on how the key is kept ("Save key stores it …"), for the Settings page. */
  readonly description: string;
  /** The stored key; null when none (or it cannot be read: see `problem`). Secure stores only: the file's key is read with the rest of the settings. */
  get(): string | null;
  /** Stores the key; throws a GatehouseError (with the reason) when it cannot, and never falls back to plain text. */
  set(key: string): void | Promise<void>;
  /** Removes the stored key (no error when there is none). */
  clear(): void | Promise<void>;
  /** A store that reads asynchronously (the desktop's): resolves once `get` and `problem` are current. */
  ready?(): Promise<void>;
  /** Why "Save key" cannot work here (null when it can), or why a stored key could not be read. */
  problem(): string | null | Promise<string | null>;
}

/** The browser shell's (and the default) store: `model.apiKey` in the user's settings.yaml, comments kept, 0600. */
export class SettingsFileKeyStore implements SecretStore {
  readonly kind = 'settings-file' as const;
  readonly description: string;

  constructor(private readonly configDir: string) {
    this.description = `as plain text (model.apiKey) in ${userSettingsFile(configDir)}, readable only by you (mode 0600)`;
  }

  get(): string | null {
    return null;
  }

  async set(key: string): Promise<void> {
    await editUserSettingsYaml(this.configDir, [{ block: 'model', key: 'apiKey', value: key }]);
  }

  async clear(): Promise<void> {
    await editUserSettingsYaml(this.configDir, [{ block: 'model', key: 'apiKey', value: null }]);
  }

  /** A key the desktop app saved is encrypted by the OS for Electron: this shell cannot use it, and says so. */
  async problem(): Promise<string | null> {
    const saved = await fs.promises.lstat(desktopKeyFile(this.configDir)).then(
      () => true,
      () => false,
    );
    if (!saved) return null;
    return `the desktop app's saved key (${desktopKeyFile(this.configDir)}) is encrypted for the desktop app and cannot be used here: save a key here or set ANTHROPIC_API_KEY`;
  }
}
