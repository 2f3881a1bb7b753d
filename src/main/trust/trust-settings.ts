import { parseDocument } from 'yaml';
import type { TrustDefault } from '../../shared/permission';
import { TrustDefaultSchema } from '../../shared/permission';
import { isMissing, MAX_SETTINGS_BYTES, readFailure, readRegularFile } from '../fs/read-regular-file';
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
export async function readTrustDefault(configDir: string): Promise<TrustDefaultRead> {
  const file = userSettingsFile(configDir);
  let text: string;
  try {
    text = await readRegularFile(file, { maxBytes: MAX_SETTINGS_BYTES, what: 'settings files' });
  } catch (err) {
    return failedRead(file, err);
  }
  return trustDefaultOf(file, text);
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
