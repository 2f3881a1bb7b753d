import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { TrustExtensionsSchema } from '../../../shared/trust-contract';
import { describeZodError } from '../../../shared/validate';
import { MAX_STATE_BYTES, readFailure, readRegularFile } from '../fs/read-regular-file';

/** The stored decisions, `trust.json` in the user config dir. Session decisions are never written. */
const StoredScopeSchema = z.enum(['directory', 'parent', 'never']);

const absolutePath = z
  .string()
  .min(1)
  .max(4096)
  .refine((p) => path.isAbsolute(p), 'must be an absolute path');
const isoDate = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'must be an ISO date');

const StoredTrustEntrySchema = z
  .object({
    /** The real path the decision is keyed by (for `parent`: the parent of the folder it was granted from). */
    path: absolutePath,
    scope: StoredScopeSchema,
    grantedAt: isoDate,
    lastOpened: isoDate.nullable(),
    /** The folder the person was looking at when deciding (differs from `path` for `parent`). */
    grantedFrom: absolutePath.nullable(),
    /** The project extensions the decision enables; absent (every file written before trust was specific): all. */
    extensions: TrustExtensionsSchema.strict().optional(),
  })
  .strict();
export type StoredTrustEntry = z.infer<typeof StoredTrustEntrySchema>;

const TRUST_FILE_VERSION = 1;
const TrustFileSchema = z
  .object({
    version: z.literal(TRUST_FILE_VERSION),
    entries: z.array(StoredTrustEntrySchema),
  })
  .strict();
type TrustFile = z.infer<typeof TrustFileSchema>;

export type TrustFileRead = { kind: 'ok'; file: TrustFile } | { kind: 'corrupt'; reason: string; raw: string };

/** A file's identity and version: when this changes the file was rewritten (atomic writes change the inode). */
export async function statSignature(file: string): Promise<string> {
  try {
    const st = await fs.promises.stat(file, { bigint: true });
    return `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  } catch {
    return 'missing';
  }
}

/** Reads and validates the store; a missing file is an empty store, anything malformed is reported whole. */
export async function readTrustFile(file: string): Promise<TrustFileRead> {
  let raw: string;
  try {
    raw = await readRegularFile(file, { maxBytes: MAX_STATE_BYTES, what: 'the trust store' });
  } catch (err) {
    return unreadable(err);
  }
  return parseTrustFile(raw);
}

function unreadable(err: unknown): TrustFileRead {
  if ((err as NodeJS.ErrnoException).code === 'ENOENT')
    return { kind: 'ok', file: { version: TRUST_FILE_VERSION, entries: [] } };
  return { kind: 'corrupt', reason: readFailure(err), raw: '' };
}

function parseTrustFile(raw: string): TrustFileRead {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (err) {
    return { kind: 'corrupt', reason: `not valid JSON: ${(err as Error).message}`, raw };
  }
  const parsed = TrustFileSchema.safeParse(json);
  if (!parsed.success) return { kind: 'corrupt', reason: describeZodError(parsed.error, 'trust.json'), raw };
  return { kind: 'ok', file: parsed.data };
}

/**
 * What can be saved from a corrupt store, for an explicit repair: every entry that still validates. Returns the
 * entries kept and how many were dropped.
 */
export function salvageTrustFile(raw: string): { entries: StoredTrustEntry[]; dropped: number } {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { entries: [], dropped: 0 };
  }
  const list = json && typeof json === 'object' && 'entries' in json ? (json as { entries: unknown }).entries : null;
  if (!Array.isArray(list)) return { entries: [], dropped: 0 };
  const entries: StoredTrustEntry[] = [];
  for (const item of list) {
    const one = StoredTrustEntrySchema.safeParse(item);
    if (one.success) entries.push(one.data);
  }
  return { entries, dropped: list.length - entries.length };
}

export function serializeTrustFile(entries: StoredTrustEntry[]): string {
  const sorted = [...entries].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return JSON.stringify({ version: TRUST_FILE_VERSION, entries: sorted }, null, 2) + '\n';
}
