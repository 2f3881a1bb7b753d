import { redactCommand, redactKnownSecrets, redactText, secretFileContent } from '../permission/redact';
import { initShellParser } from '../shell-analysis/parse/parser';
import { commandSecretValues } from '../permission/secrets/command-secret-args';
import { MAX_TRANSCRIPT_BYTES, readRegularFile } from '../fs/read-regular-file';

/**
 * A transcript's exported form (`gatehouse sessions export`): the same JSON lines, with every string redacted
 * (permission/redact.ts) and the contents written to secret-holding files (`.env`, keys, `.npmrc`) dropped whole. The
 * file on disk keeps the exact conversation, which resuming needs; only the export leaves the machine.
 */
// `unifiedDiff`: a write's stored preview (on its decision event) shows the file's content too.
const CONTENT_KEYS = new Set(['content', 'old_string', 'new_string', 'unifiedDiff']);
const MAX_DEPTH = 200;

/** `secrets`: values a command in an enclosing object passes to tools that take secrets (`vault login TOKEN`). */
function redactValue(value: unknown, depth: number, secrets: readonly string[] = []): unknown {
  if (typeof value === 'string') return redactText(redactKnownSecrets(value, secrets));
  if (typeof value !== 'object' || value === null) return value;
  if (depth > MAX_DEPTH) return '[nested too deep]';
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1, secrets));
  const record = value as Record<string, unknown>;
  const secretFile = secretFileContent(record.path);
  const command = typeof record.command === 'string' ? record.command : null;
  const own = command === null ? secrets : [...secrets, ...commandSecretValues(command.slice(0, 100_000))];
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(record)) {
    out[key] =
      secretFile && CONTENT_KEYS.has(key) && typeof v === 'string'
        ? `[${v.length} chars of secret-file content redacted]`
        : key === 'command' && command !== null
          ? redactCommand(command, own)
          : redactValue(v, depth + 1, own);
  }
  return out;
}

/** One redacted line per line of the transcript; a line that is not JSON is exported as redacted text. */
export async function exportTranscriptLines(file: string): Promise<string[]> {
  const text = await readRegularFile(file, { maxBytes: MAX_TRANSCRIPT_BYTES, what: 'session transcripts' });
  // commands are parsed to find the secrets they pass to tools that take them
  await initShellParser();
  const out: string[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      out.push(JSON.stringify({ unreadableLine: redactText(line) }));
      continue;
    }
    out.push(JSON.stringify(redactValue(json, 0)));
  }
  return out;
}
