/**
 * Secrets in the shapes a coding agent's calls carry them, which secret-scanner rule sets leave out because they
 * scan committed files, not command lines: `mysql -pSECRET`, `curl -u user:pass`, `--password X`, `sshpass -p X`,
 * credentials in URLs, Authorization headers, and `password|secret|token|key = value` assignments in any syntax
 * (shell, YAML, JSON, .env, code). Hand-written because they are specific to what this product logs; every pattern
 * is linear (no nested quantifiers), and each marks the secret with the named group `s`.
 */

const KEYWORD =
  '(?:password|passwd|passphrase|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|auth[_-]?key|client[_-]?secret|credentials?|session[_-]?key|signing[_-]?key|encryption[_-]?key)';
/** Key names that hold a reference or a count, not a secret (`TOKEN_URL`, `max_tokens`, `password_file`). */
const NOT_SECRET_KEY =
  /(?:file|path|dir|url|uri|endpoint|name|id|type|length|size|count|limit|ttl|expiry|expires|header|field|prefix|env|tokens|policy|rotation|hint|prompt|label|regex|pattern|enabled|required|min|max)$/i;
/** Values that are references, placeholders or plain words, not secrets. */
const NOT_SECRET_VALUE =
  /^(?:\$|%|\{\{|<|\*{3,}|x{3,}$|true$|false$|null$|none$|undefined$|process\.env|os\.environ|env\(|getenv|secrets\.|\[redacted)/i;

const VALUE = `(?<s>"[^"\\n]{1,500}"|'[^'\\n]{1,500}'|[^\\s'",;&|)\\]}]{1,500})`;

interface Pattern {
  re: RegExp;
  /** Checks the key (when the pattern has a `k` group) and the value before they count as a secret. */
  judge?: (key: string | undefined, value: string) => boolean;
}

const assignmentJudge = (key: string | undefined, value: string): boolean => {
  const bare = value.replace(/^["']|["']$/g, '');
  if (bare.length === 0 || NOT_SECRET_VALUE.test(bare)) return false;
  if (key !== undefined && NOT_SECRET_KEY.test(key.replace(/["']/g, ''))) return false;
  return true;
};

const PATTERNS: Pattern[] = [
  // KEY=value, key: value, "key": "value", key => 'value', $key = "value" (the key may be prefixed: DB_PASSWORD, apiKey).
  {
    re: new RegExp(
      `(?<k>["']?[A-Za-z0-9_.-]{0,40}${KEYWORD}[A-Za-z0-9_.-]{0,40}["']?)[ \\t]{0,5}(?:=>|:=|=|:)[ \\t]{0,5}${VALUE}`,
      'dgi',
    ),
    judge: assignmentJudge,
  },
  // --password=X, --db-password X, --api-key X, --token=X (not --password-file, --token-stdin).
  {
    re: new RegExp(
      `(?<k>--[A-Za-z0-9-]{0,30}(?:password|passwd|pass|secret|token|api-?key|apikey|access-?key|private-?key|client-secret|auth))(?:=|[ \\t]{1,5})(?!-)${VALUE}`,
      'dgi',
    ),
    judge: assignmentJudge,
  },
  // mysql -pSECRET (the password glued to -p), also mysqldump, mariadb and friends.
  {
    re: /\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlshow|mysqlcheck|mysqlpump|mysqlsh|mariadb|mariadb-dump)\b[^\n;&|]{0,300}?[ \t]-p(?<s>"[^"\n]+"|'[^'\n]+'|[^\s'"]+)/dg,
  },
  // curl -u user:pass, --user user:pass, -uuser:pass.
  { re: /\bcurl\b[^\n;&|]{0,300}?[ \t](?:-u[ \t]{0,5}|--user(?:=|[ \t]{1,5}))["']?[^\s:'"]{0,100}:(?<s>[^\s'"]+)/dg },
  // sshpass -p X, redis-cli -a X, docker/podman login -p X.
  { re: /\bsshpass\b[^\n;&|]{0,100}?[ \t]-p[ \t]{0,5}(?<s>"[^"\n]+"|'[^'\n]+'|[^\s'"]+)/dg },
  { re: /\bredis-cli\b[^\n;&|]{0,200}?[ \t]-a[ \t]{1,5}(?<s>"[^"\n]+"|'[^'\n]+'|[^\s'"]+)/dg },
  {
    re: /\b(?:docker|podman|helm|nerdctl)\b[^\n;&|]{0,100}?\blogin\b[^\n;&|]{0,200}?[ \t]-p[ \t]{1,5}(?<s>"[^"\n]+"|'[^'\n]+'|[^\s'"]+)/dg,
  },
  // smbclient -U user%pass
  { re: /[ \t]-U[ \t]{0,5}["']?[^\s%'"]{1,100}%(?<s>[^\s'"]+)/dg },
  // scheme://user:password@host
  { re: /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^/\s:@'"]{1,200}:(?<s>[^@\s/'"]{1,500})@/dgi },
  // Authorization: Bearer X / Basic X / Token X, X-Api-Key: X, Private-Token: X, and a bare "Bearer X".
  {
    re: /\b(?:Proxy-)?Authorization[ \t]{0,5}:[ \t]{0,5}(?:(?:Bearer|Basic|Token|Digest|ApiKey|Bot)[ \t]{1,5})?(?<s>[A-Za-z0-9._~+/=:-]{6,})/dgi,
  },
  {
    re: /\b(?:X-[A-Za-z-]{0,30}(?:Key|Token|Secret)|Private-Token|Api-Key)[ \t]{0,5}:[ \t]{0,5}(?<s>[A-Za-z0-9._~+/=-]{6,})/dgi,
  },
  { re: /\b(?:Bearer|Basic)[ \t]{1,5}(?<s>[A-Za-z0-9._~+/=-]{8,})/dg },
  // Model-provider keys, also in shorter forms than the rule set's (sk-ant-…, sk-proj-…, sk-…).
  { re: /\b(?<s>sk-(?:ant-[a-z0-9]{2,8}-|proj-|svcacct-|admin-)?[A-Za-z0-9_-]{16,})/dg },
  // GitHub tokens by prefix, also shorter than the rule set's exact lengths.
  { re: /\b(?<s>(?:gh[pousr]|github_pat)_[A-Za-z0-9_]{16,})/dg },
  // A private key block, even one cut short (no END line in a clipped text).
  {
    re: /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----(?<s>[\s\S]*?)(?:-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----|$)/dg,
  },
];

export interface Span {
  start: number;
  end: number;
}

/** The spans of the secrets these patterns find in `text`. */
export function findCommandSecrets(text: string): Span[] {
  const spans: Span[] = [];
  for (const { re, judge } of PATTERNS) {
    re.lastIndex = 0;
    for (const m of text.matchAll(re)) {
      const value = m.groups?.s;
      const at = m.indices?.groups?.s;
      if (value === undefined || value.length === 0 || at === undefined) continue;
      if (judge && !judge(m.groups?.k, value)) continue;
      spans.push({ start: at[0], end: at[1] });
    }
  }
  return spans;
}
