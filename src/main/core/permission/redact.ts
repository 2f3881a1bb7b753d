import { isSensitiveFile } from './sensitive-files';
import { commandSecretValues } from './secrets/command-secret-args';
import { findCommandSecrets, type Span } from './secrets/command-secrets';
import { findSecrets } from './secrets/secret-rules';

/**
 * Redaction for the audit log, exported transcripts and logs: secrets found by gitleaks' rule set (vendored data, see
 * secrets/README.md) and by the command-line and assignment shapes of secrets/command-secrets.ts are replaced by
 * `[REDACTED]`. The contents of files that hold secrets (the sensitive-file defaults, `.env`-like files) are dropped
 * whole.
 */
const REDACTED = '[REDACTED]';

function merge(spans: Span[]): Span[] {
  const sorted = spans.filter((s) => s.end > s.start).sort((a, b) => a.start - b.start);
  const out: Span[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
}

function replaceSpans(text: string, spans: Span[]): string {
  let out = '';
  let at = 0;
  for (const s of merge(spans)) {
    out += text.slice(at, s.start) + REDACTED;
    at = s.end;
  }
  return out + text.slice(at);
}

/** The text with every secret replaced by `[REDACTED]`. */
export function redactText(text: string): string {
  if (text.length === 0) return text;
  return replaceSpans(text, [...findSecrets(text), ...findCommandSecrets(text)]);
}

/** How a shell word may be spelled in the command's text: as is, in double quotes, in single quotes. */
function spellings(secret: string): string[] {
  return [
    secret,
    secret.replace(/(["\\$`])/g, '\\$1'),
    secret.replace(/'/g, "'\\''"),
    secret.replace(/([^A-Za-z0-9_@%+=:,./-])/g, '\\$1'),
  ];
}

/**
 * `text` with every occurrence of the given secret values replaced (see secrets/command-secret-args.ts), in any of
 * the spellings a shell word can have. `strict`: when a value cannot be found in `text` (an unusual quoting), all of
 * `text` after its first word is redacted rather than leave the secret readable.
 */
export function redactKnownSecrets(text: string, secrets: readonly string[], strict = false): string {
  let out = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    const forms = [...new Set(spellings(secret))].filter((f) => text.includes(f));
    if (forms.length === 0) {
      if (strict) return `${/^\S*/.exec(text)?.[0] ?? ''} ${REDACTED}`;
      continue;
    }
    for (const f of forms.sort((a, b) => b.length - a.length)) out = out.split(f).join(REDACTED);
  }
  return out;
}

/** A command line redacted: the secrets the tools of the table take, then the shape-based patterns. */
export function redactCommand(command: string, secrets: readonly string[] = commandSecretValues(command)): string {
  return redactText(redactKnownSecrets(command, secrets, true));
}

/** The secrets a tool call's command passes to the tools that take them (none for other tools). */
export function callSecrets(tool: string, input: unknown): string[] {
  if (tool !== 'run_command' || typeof input !== 'object' || input === null) return [];
  const command = (input as Record<string, unknown>).command;
  return typeof command === 'string' ? commandSecretValues(command.slice(0, 100_000)) : [];
}

/** `.env`, `.env.*`, `*.env`, `.envrc`: files of `KEY=value` lines, usually secrets. */
function isEnvFile(p: string): boolean {
  const base = p.split(/[\\/]/).pop() ?? '';
  return base === '.env' || base.startsWith('.env.') || base.endsWith('.env') || base === '.envrc';
}

/** Whether a file's content is dropped whole from the log (a secret-holding file by name). */
export function secretFileContent(p: unknown): boolean {
  return typeof p === 'string' && p.length > 0 && (isEnvFile(p) || isSensitiveFile(p));
}

const MAX_FIELD = 500;
/** How much of a field is redacted before the clip: the shown part plus a margin, so a secret across the cut is found whole. */
const REDACT_SPAN = MAX_FIELD + 200;

function clip(s: string): string {
  return s.length > MAX_FIELD ? `${s.slice(0, MAX_FIELD)}… (${s.length} chars)` : s;
}

/** JSON.stringify that never throws (an input nested absurdly deep cannot be serialised). */
function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return '[not serialisable: nested too deep]';
  }
}

const CONTENT_KEYS = new Set(['content', 'old_string', 'new_string']);

/**
 * A short, redacted summary of a tool call's input: paths and commands kept, file contents reduced to sizes. A
 * command's secret arguments (`secrets`, from `callSecrets`) are redacted wherever they appear.
 */
export function summarizeInput(
  tool: string,
  input: unknown,
  secrets: readonly string[] = callSecrets(tool, input),
): Record<string, unknown> {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    return { input: clip(redactText(safeJson(input).slice(0, REDACT_SPAN))) };
  const out: Record<string, unknown> = {};
  const secretFile = secretFileContent((input as Record<string, unknown>).path);
  for (const [key, value] of Object.entries(input)) {
    if (typeof value === 'string' && CONTENT_KEYS.has(key)) {
      // Redacted before clipping, so a secret is never cut in half (and left half readable) by the clip.
      out[key] = secretFile
        ? `[${value.length} chars of secret-file content redacted]`
        : clip(redactText(value.slice(0, REDACT_SPAN)));
    } else if (typeof value === 'string' && key === 'command' && tool === 'run_command') {
      out[key] = clip(redactCommand(value, secrets).slice(0, REDACT_SPAN));
    } else if (typeof value === 'string') {
      out[key] = clip(redactText(redactKnownSecrets(value, secrets).slice(0, REDACT_SPAN)));
    } else if (typeof value === 'number' || typeof value === 'boolean' || value === null) {
      out[key] = value;
    } else {
      out[key] = clip(redactText(safeJson(value).slice(0, REDACT_SPAN)));
    }
  }
  void tool;
  return out;
}
