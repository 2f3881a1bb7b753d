/**
 * Redaction for the audit log: API keys, tokens, passwords and `KEY=value` secrets never reach the log, and the
 * contents of `.env` files are dropped whole.
 */
const PATTERNS: [RegExp, string][] = [
  [/sk-ant-[A-Za-z0-9_-]{8,}/g, 'sk-ant-[REDACTED]'],
  [/\bsk-[A-Za-z0-9_-]{16,}/g, 'sk-[REDACTED]'],
  [/\b(gh[pousr]|github_pat)_[A-Za-z0-9_]{16,}/g, '$1_[REDACTED]'],
  [/\b(AKIA|ASIA)[A-Z0-9]{16}\b/g, '$1[REDACTED]'],
  [/\bxox[abprs]-[A-Za-z0-9-]{10,}/g, 'xox-[REDACTED]'],
  [/\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{8,}/gi, '$1 [REDACTED]'],
  [/(-----BEGIN [A-Z ]*PRIVATE KEY-----)[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g, '$1[REDACTED]'],
  [/\b(password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|auth)(\s*[=:]\s*)("[^"]*"|'[^']*'|[^\s&;'"]+)/gi, '$1$2[REDACTED]'],
  [/\b([A-Z][A-Z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD|PASS|CREDENTIALS?|PAT))=("[^"]*"|'[^']*'|[^\s;&]+)/g, '$1=[REDACTED]'],
  [/(:\/\/[^/\s:@]+:)[^@\s/]+@/g, '$1[REDACTED]@'],
];

export function redactText(text: string): string {
  let out = text;
  for (const [re, replacement] of PATTERNS) out = out.replace(re, replacement);
  return out;
}

function isEnvFile(p: unknown): boolean {
  if (typeof p !== 'string') return false;
  const base = p.split(/[\\/]/).pop() ?? '';
  return base === '.env' || base.startsWith('.env.');
}

const MAX_FIELD = 500;

function clip(s: string): string {
  return s.length > MAX_FIELD ? `${s.slice(0, MAX_FIELD)}… (${s.length} chars)` : s;
}

/** A short, redacted summary of a tool call's input: paths and commands kept, file contents reduced to sizes. */
export function summarizeInput(tool: string, input: unknown): Record<string, unknown> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return { input: clip(redactText(JSON.stringify(input) ?? String(input))) };
  const out: Record<string, unknown> = {};
  const envFile = isEnvFile((input as Record<string, unknown>).path);
  for (const [key, value] of Object.entries(input)) {
    if (typeof value === 'string' && (key === 'content' || key === 'old_string' || key === 'new_string')) {
      out[key] = envFile ? `[${value.length} chars of .env content redacted]` : clip(redactText(value));
    } else if (typeof value === 'string') {
      out[key] = clip(redactText(value));
    } else if (typeof value === 'number' || typeof value === 'boolean' || value === null) {
      out[key] = value;
    } else {
      out[key] = clip(redactText(JSON.stringify(value) ?? ''));
    }
  }
  void tool;
  return out;
}
