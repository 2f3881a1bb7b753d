import { parseDocument } from 'yaml';
import type { TrustDefault } from '../../../shared/permission';
import { TrustDefaultSchema } from '../../../shared/permission';
import { isMissing, MAX_SETTINGS_BYTES, readFailure, readRegularFile } from '../fs/read-regular-file';
import { statKey } from '../settings/settings-file-keys';
import { editSettingsDocument } from '../settings/settings-document';
import { userSettingsFile } from '../settings/settings-locations';

export interface TrustDefaultRead {
  value: TrustDefault;
  /** Why the file's value was not used (unreadable YAML, unknown value); null when it was read cleanly or absent. */
  error: string | null;
}

/**
 * Reads `trust.default` from the user settings. Absent means `ask`. A malformed file or value never widens trust:
 * it is reported and `ask` applies.
 */
async function readTrustDefault(configDir: string): Promise<TrustDefaultRead> {
  const file = userSettingsFile(configDir);
  let text: string;
  try {
    text = await readRegularFile(file, { maxBytes: MAX_SETTINGS_BYTES, what: 'settings files' });
  } catch (err) {
    return failedRead(file, err);
  }
  return trustDefaultOf(file, text);
}

/**
 * How long after a change a second change may leave a file's stat as it was (a file-system clock ticks coarsely, and
 * an edit of the same size in the same tick keeps inode, size and times): until then the file is read again each time.
 */
const SETTLE_NS = 2_000_000_000n;

/**
 * `trust.default` of one config folder's user settings, stat'ed on every read and read again (and parsed) only when the
 * file changed on disk, or changed so recently that its stat cannot tell: the trust store answers every decision with
 * it.
 */
export class TrustDefaultFile {
  private last: { key: string; read: TrustDefaultRead; settled: boolean } | null = null;

  constructor(private readonly configDir: string) {}

  async read(): Promise<TrustDefaultRead> {
    const { key, ctimeNs } = await statKey(userSettingsFile(this.configDir));
    if (this.last?.settled && this.last.key === key) return this.last.read;
    const read = await readTrustDefault(this.configDir);
    this.last = { key, read, settled: BigInt(Date.now()) * 1_000_000n - ctimeNs > SETTLE_NS };
    return read;
  }
}

function failedRead(file: string, err: unknown): TrustDefaultRead {
  if (isMissing(err)) return { value: 'ask', error: null };
  return { value: 'ask', error: `${file}: ${readFailure(err)}` };
}

function trustDefaultOf(file: string, text: string): TrustDefaultRead {
  const doc = parseDocument(text);
  if (doc.errors.length) {
    const first = doc.errors[0];
    const where = first?.linePos?.[0] ? ` (line ${first.linePos[0].line})` : '';
    return { value: 'ask', error: `${file}${where}: not valid YAML: ${first?.code ?? 'error'}` };
  }
  const raw: unknown = doc.getIn(['trust', 'default']);
  if (raw === undefined || raw === null) return { value: 'ask', error: null };
  const parsed = TrustDefaultSchema.safeParse(raw);
  if (!parsed.success)
    return { value: 'ask', error: `${file}: trust.default must be trust, ask or never (got ${JSON.stringify(raw)})` };
  return { value: parsed.data, error: null };
}

/**
 * Sets `trust.default` in the user settings, keeping the rest of the file and its comments, atomically and under the
 * file's lock. A settings file that is not valid YAML is not overwritten: the person's other settings would be lost.
 */
export async function writeTrustDefault(configDir: string, value: TrustDefault): Promise<void> {
  const file = userSettingsFile(configDir);
  await editSettingsDocument(
    file,
    (doc) => {
      doc.setIn(['trust', 'default'], value);
      return true;
    },
    { mode: 0o600 },
  );
}
