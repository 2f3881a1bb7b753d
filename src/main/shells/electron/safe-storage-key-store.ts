import fs from 'node:fs';
import { z } from 'zod';
import { GatehouseError } from '../../../shared/errors';
import { desktopKeyFile } from '../../services/app/secret-store';
import type { SecretStore } from '../../services/app/secret-store';
import { writeFileAtomicAsync } from '../../core/fs/atomic-write';

/**
 * The part of Electron's `safeStorage` this store uses (main process, after `app.whenReady()`): the asynchronous
 * API, since Electron 45 deprecates the synchronous one (it blocks the main thread on the OS keychain).
 */
export interface SafeStorageLike {
  isAsyncEncryptionAvailable(): Promise<boolean>;
  encryptStringAsync(plainText: string): Promise<Buffer>;
  decryptStringAsync(encrypted: Buffer): Promise<{ shouldReEncrypt: boolean; result: string }>;
  /** Linux only: `basic_text` means a hard-coded password, i.e. no real protection. */
  getSelectedStorageBackend?(): string;
}

const StoredKeyFileSchema = z.strictObject({ version: z.literal(1), encrypted: z.base64().min(1) });

/** `<config dir>/model-key.safe`. */
export const modelKeyFile = desktopKeyFile;

const NO_KEYRING =
  'the operating system offers no encryption for stored secrets here (no keychain or secret service), so Gatehouse will not store the key';

/**
 * The desktop's model key: encrypted with Electron's safeStorage (the OS keychain / DPAPI / libsecret) and kept as
 * `<config dir>/model-key.safe` (atomic write, mode 0600). Without real OS encryption it refuses to store the key
 * rather than keep it in plain text. Nothing here blocks the main thread: the stored key is read and decrypted
 * once when the store is made (`ready()` resolves then) and kept in memory; saving and removing are asynchronous.
 */
export class SafeStorageKeyStore implements SecretStore {
  readonly kind = 'secure-store' as const;
  readonly description =
    "encrypted by your operating system's keychain (Electron safeStorage), in the Gatehouse config folder";
  private readonly file: string;
  private key: string | null = null;
  private readError: string | null = null;
  private unavailable: string | null = null;
  private readonly loading: Promise<void>;

  constructor(
    private readonly safeStorage: SafeStorageLike,
    configDir: string,
  ) {
    this.file = modelKeyFile(configDir);
    this.loading = this.load();
  }

  /** Resolves once the stored key has been read (or found missing or unusable): `get` and `problem` are then current. */
  ready(): Promise<void> {
    return this.loading;
  }

  get(): string | null {
    return this.key;
  }

  async set(key: string): Promise<void> {
    await this.loading;
    const reason = await this.checkAvailable();
    if (reason) throw new GatehouseError('FORBIDDEN', reason);
    await this.write(key);
    this.key = key.trim() || null;
    this.readError = null;
  }

  async clear(): Promise<void> {
    await this.loading;
    await fs.promises.rm(this.file, { force: true });
    this.key = null;
    this.readError = null;
  }

  problem(): string | null {
    return this.unavailable ?? this.readError;
  }

  /** Why the OS cannot encrypt here (also kept for `problem`); null when it can. */
  private async checkAvailable(): Promise<string | null> {
    let available: boolean;
    try {
      available = await this.safeStorage.isAsyncEncryptionAvailable();
    } catch {
      available = false;
    }
    if (!available) this.unavailable = `${NO_KEYRING}; set ANTHROPIC_API_KEY instead`;
    else if (this.safeStorage.getSelectedStorageBackend?.() === 'basic_text')
      this.unavailable = `${NO_KEYRING} (only "basic_text", which is not real encryption); set ANTHROPIC_API_KEY instead`;
    else this.unavailable = null;
    return this.unavailable;
  }

  private async write(key: string): Promise<void> {
    let encrypted: Buffer;
    try {
      encrypted = await this.safeStorage.encryptStringAsync(key);
    } catch (err) {
      throw new GatehouseError(
        'INTERNAL',
        `the OS could not encrypt the key (${err instanceof Error ? err.message : String(err)}); nothing was stored`,
      );
    }
    await writeFileAtomicAsync(
      this.file,
      `${JSON.stringify({ version: 1, encrypted: encrypted.toString('base64') })}\n`,
      0o600,
    );
  }

  private async load(): Promise<void> {
    const unavailable = await this.checkAvailable();
    let text: string;
    try {
      text = await fs.promises.readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
        this.readError = `${this.file}: cannot read the stored key (${(err as Error).message})`;
      return;
    }
    if (unavailable) {
      this.readError = `${this.file}: a key is stored but the OS cannot decrypt it now`;
      return;
    }
    let decrypted: { shouldReEncrypt: boolean; result: string };
    try {
      const parsed = StoredKeyFileSchema.parse(JSON.parse(text));
      decrypted = await this.safeStorage.decryptStringAsync(Buffer.from(parsed.encrypted, 'base64'));
    } catch {
      this.readError = `${this.file}: the stored key cannot be decrypted (a different user or keychain?): save it again`;
      return;
    }
    this.key = decrypted.result.trim() || null;
    // The OS rotated its key (or offers a stronger one): store the key again under it; the old file still works.
    if (decrypted.shouldReEncrypt && this.key) await this.write(this.key).catch(() => undefined);
  }
}
