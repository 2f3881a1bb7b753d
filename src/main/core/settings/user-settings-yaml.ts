/**
 * The user's own `settings.yaml` as a whole, for the blocks that only it may hold (`model:`, `ui:`): read it
 * (never throwing: a problem is a warning naming the file) and edit it with yaml's Document API (comments and
 * layout kept), atomically, mode 0600 (it may hold an API key).
 */
import { isMap, isScalar, parseDocument } from 'yaml';
import { GatehouseError } from '../../../shared/errors';
import { isMissing, MAX_SETTINGS_BYTES, readFailure, readRegularFile } from '../fs/read-regular-file';
import { editSettingsDocument } from './settings-document';
import { userSettingsFile } from './settings-locations';

export interface UserSettingsRead {
  file: string;
  /** The parsed file (undefined when missing, empty or unreadable). */
  value: unknown;
  /** Why the file could not be read or parsed; null when fine (a missing file is fine). */
  problem: string | null;
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}

/** The user's settings.yaml, read with fs.promises (never throws: a problem names the file). */
export function readUserSettingsYamlAsync(configDir: string): Promise<UserSettingsRead> {
  return readSettingsYamlAsync(userSettingsFile(configDir));
}

/** A YAML settings file of the person's or the machine's (the managed policy), read as the user's is. */
export async function readSettingsYamlAsync(file: string): Promise<UserSettingsRead> {
  let text: string;
  try {
    text = await readRegularFile(file, { maxBytes: MAX_SETTINGS_BYTES, what: 'settings files' });
  } catch (err) {
    return unreadable(file, err);
  }
  return parseUserSettings(file, text);
}

function unreadable(file: string, err: unknown): UserSettingsRead {
  if (isMissing(err)) return { file, value: undefined, problem: null };
  return { file, value: undefined, problem: `${file}: ${readFailure(err)}` };
}

function parseUserSettings(file: string, text: string): UserSettingsRead {
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  const yamlError = doc.errors[0];
  if (yamlError)
    return { file, value: undefined, problem: `${file}: ${firstLine(yamlError.message) || 'invalid YAML'}` };
  try {
    return { file, value: doc.toJS({ maxAliasCount: 100 }), problem: null };
  } catch (err) {
    return { file, value: undefined, problem: `${file}: ${err instanceof Error ? err.message : String(err)}` };
  }
}

/** The top-level block `key` of a parsed settings value (undefined when absent or the file is no mapping). */
export function settingsBlock(value: unknown, key: string): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return (value as Record<string, unknown>)[key];
}

/** A problem loading the file for an edit, as a GatehouseError that says nothing changed. */
function editError(file: string, err: unknown): GatehouseError {
  if (err instanceof GatehouseError) return err;
  const unreadable = typeof (err as NodeJS.ErrnoException).code === 'string';
  const message = err instanceof Error ? err.message : String(err);
  return new GatehouseError(
    unreadable ? 'INTERNAL' : 'BAD_REQUEST',
    unreadable ? `${file}: cannot read it (${message}); nothing was changed` : `${message}; nothing was changed`,
  );
}

/** One value to set (a string) or remove (null) at `block.key`. */
export interface SettingChange {
  block: string;
  key: string;
  value: string | null;
}

/**
 * Applies the changes to the user's settings.yaml in one atomic write. A block that is not a mapping is refused
 * (nothing is lost); a block left empty by removals is removed; nothing to change writes nothing. Returns the file.
 */
export async function editUserSettingsYaml(configDir: string, changes: readonly SettingChange[]): Promise<string> {
  const file = userSettingsFile(configDir);
  try {
    await editSettingsDocument(
      file,
      (doc) => {
        let changed = false;
        for (const { block, key, value } of changes) {
          const node = doc.get(block, true);
          const empty = node === undefined || node === null || (isScalar(node) && node.value === null);
          if (!empty && !isMap(node))
            throw new GatehouseError(
              'BAD_REQUEST',
              `${file}: "${block}" must be a mapping (it is not); fix it first; nothing was changed`,
            );
          if (value !== null) {
            changed = true;
            if (empty) doc.set(block, doc.createNode({ [key]: value }));
            else doc.setIn([block, key], value);
          } else if (!empty && doc.hasIn([block, key])) {
            changed = true;
            doc.deleteIn([block, key]);
            const after = doc.get(block, true);
            if (isMap(after) && after.items.length === 0) doc.delete(block);
          }
        }
        return changed;
      },
      { mode: 0o600 },
    );
  } catch (err) {
    throw editError(file, err);
  }
  return file;
}
