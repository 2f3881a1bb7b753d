import fs from 'node:fs';
import { z } from 'zod';
import { GatehouseError } from '../../shared/errors';
import { desktopKeyFile } from '../app/secret-store';
import type { SecretStore } from '../app/secret-store';
import { writeFileAtomic } from '../fs/atomic-write';

/** The part of Electron's `safeStorage` this store uses (main process only, after `app.whenReady()`). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only: `basic_text` means a hard-coded password, i.e. no real protection. */
  getSelectedStorageBackend?(): string;
}

const StoredKeyFileSchema = z.strictObject({ version: z.literal(1), encrypted: z.base64().min(1) });

/** `<config dir>/model-key.safe`. */
export const modelKeyFile = desktopKeyFile;

/**
 * The desktop's model key: encrypted with Electron's safeStorage (the OS keychain / DPAPI / libsecret) and kept as
 * `<config dir>/model-key.safe` (atomic write, mode 0600). Without real OS encryption it refuses to store the key
 * rather than keep it in plain text.
 */
export class SafeStorageKeyStore implements SecretStore {
  readonly kind = 'secure-store' as const;
  readonly description = "encrypted by your operating system's keychain (Electron safeStorage), in the Gatehouse config folder";
  private readonly file: string;
  private readError: string | null = null;

  constructor(
    private readonly safeStorage: SafeStorageLike,
    configDir: string,
  ) {
    this.file = modelKeyFile(configDir);
  }

  /** Why the OS cannot encrypt here; null when it can. */
  private unavailable(): string | null {
    let available: boolean;
    try {
      available = this.safeStorage.isEncryptionAvailable();
    } catch {
      available = false;
    }
    const noKeyring = 'the operating system offers no encryption for stored secrets here (no keychain or secret service), so Gatehouse will not store the key';
    if (!available) return `${noKeyring}; set ANTHROPIC_API_KEY instead`;
    if (this.safeStorage.getSelectedStorageBackend?.() === 'basic_text') return `${noKeyring} (only "basic_text", which is not real encryption); set ANTHROPIC_API_KEY instead`;
    return null;
  }

  get(): string | null {
    this.readError = null;
    let text: string;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.readError = `${this.file}: cannot read the stored key (${(err as Error).message})`;
      return null;
    }
    if (this.unavailable()) {
      this.readError = `${this.file}: a key is stored but the OS cannot decrypt it now`;
      return null;
    }
    try {
      const parsed = StoredKeyFileSchema.parse(JSON.parse(text));
      const key = this.safeStorage.decryptString(Buffer.from(parsed.encrypted, 'base64')).trim();
      return key || null;
    } catch {
      this.readError = `${this.file}: the stored key cannot be decrypted (a different user or keychain?): save it again`;
      return null;
    }
  }

  set(key: string): void {
    const reason = this.unavailable();
    if (reason) throw new GatehouseError('FORBIDDEN', reason);
    let encrypted: Buffer;
    try {
      encrypted = this.safeStorage.encryptString(key);
    } catch (err) {
      throw new GatehouseError('INTERNAL', `the OS could not encrypt the key (${err instanceof Error ? err.message : String(err)}); nothing was stored`);
    }
    writeFileAtomic(this.file, `${JSON.stringify({ version: 1, encrypted: encrypted.toString('base64') })}\n`, 0o600);
    this.readError = null;
  }

  clear(): void {
    fs.rmSync(this.file, { force: true });
    this.readError = null;
  }

  problem(): string | null {
    return this.unavailable() ?? this.readError;
  }
}
