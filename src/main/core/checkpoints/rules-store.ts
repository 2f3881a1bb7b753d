import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomicAsync } from '../fs/atomic-write';
import { isMissing, readRegularFile } from '../fs/read-regular-file';

/**
 * The texts checkpoints keep besides files: each checkpoint's view (its ignore rules as one exclude file) and the
 * project's `.git/info/exclude` at each noted moment. Stored once per content under `<checkpoint folder>/rules/`,
 * named by their SHA-256, outside the shadow repository (git's pruning never removes them; the store's own prune
 * does, with the last checkpoint that names them).
 */
const RULES_HASH = /^[0-9a-f]{64}$/;

/** The most a view may hold (every ignore file of the project together). */
export const MAX_RULES_BYTES = 16 * 1024 * 1024;

export class RulesStore {
  constructor(readonly dir: string) {}

  static hash(text: string): string {
    return createHash('sha256').update(text, 'utf8').digest('hex');
  }

  file(hash: string): string {
    if (!RULES_HASH.test(hash)) throw new Error(`not a rules hash: ${JSON.stringify(hash)}`);
    return path.join(this.dir, hash);
  }

  /** Stores `text` (once) and returns its hash. */
  async put(text: string): Promise<string> {
    const hash = RulesStore.hash(text);
    const file = this.file(hash);
    const present = await fs.promises.lstat(file).then(
      (st) => st.isFile(),
      () => false,
    );
    if (!present) {
      await fs.promises.mkdir(this.dir, { recursive: true, mode: 0o700 });
      await writeFileAtomicAsync(file, text);
    }
    return hash;
  }

  /** The text of `hash`; an error naming the file when it is missing or is not what its name says. */
  async read(hash: string): Promise<string> {
    const file = this.file(hash);
    const text = await readRegularFile(file, { maxBytes: MAX_RULES_BYTES, what: 'checkpoint rules' });
    if (RulesStore.hash(text) !== hash) throw new Error(`${file}: its content does not match its name`);
    return text;
  }

  /** The path of `hash`'s file after checking it holds what its name says (git reads it by path). */
  async verifiedFile(hash: string): Promise<string> {
    await this.read(hash);
    return this.file(hash);
  }

  /** Deletes the texts no checkpoint names any more. */
  async prune(keep: ReadonlySet<string>): Promise<void> {
    let names: string[];
    try {
      names = await fs.promises.readdir(this.dir);
    } catch (err) {
      if (isMissing(err)) return;
      throw err;
    }
    for (const name of names)
      if (RULES_HASH.test(name) && !keep.has(name)) await fs.promises.rm(path.join(this.dir, name), { force: true });
  }
}
