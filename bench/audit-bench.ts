import { AuditLog } from '../src/main/core/permission/audit-log';
import { redactText } from '../src/main/core/permission/redact';
import { percentile, round, usSince } from './stats';

const CALLS = [
  { tool: 'run_command', input: { command: 'npm run test -- --watch' } },
  { tool: 'run_command', input: { command: 'git commit -m "fix token refresh" && git push origin main' } },
  { tool: 'run_command', input: { command: 'mysql -uroot -pS3cr3tPassw0rd shop < seed.sql' } },
  {
    tool: 'run_command',
    input: { command: 'curl -H "Authorization: Bearer abcdef0123456789" https://api.example.com/v1/items' },
  },
  {
    tool: 'write_file',
    input: { path: 'src/config.ts', content: 'export const apiKey = process.env.API_KEY;\n'.repeat(20) },
  },
  { tool: 'read_file', input: { path: 'src/index.ts' } },
];
const allow = { decision: 'allow', source: 'mode', rule: null, reason: 'default mode' } as const;

/**
 * What redaction costs each decision: audit_first_redact_ms (the first call of a process: the rule set is read and
 * the rules its keywords need are compiled) and audit_record_p50/p99_us (redact + append one line, warmed).
 */
export function benchAudit(configDir: string): Record<string, number> {
  const started = process.hrtime.bigint();
  redactText(String(CALLS[3]!.input.command));
  const first = usSince(started) / 1000;
  const log = new AuditLog({ configDir, fileName: 'bench-audit.jsonl' });
  for (let i = 0; i < 200; i++) log.record('bench', CALLS[i % CALLS.length], allow);
  const samples: number[] = [];
  for (let i = 0; i < 2000; i++) {
    const t = process.hrtime.bigint();
    log.record('bench', CALLS[i % CALLS.length], allow);
    samples.push(usSince(t));
  }
  return {
    audit_first_redact_ms: round(first),
    audit_record_p50_us: round(percentile(samples, 50)),
    audit_record_p99_us: round(percentile(samples, 99)),
  };
}
