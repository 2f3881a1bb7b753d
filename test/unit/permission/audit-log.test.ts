import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditLog } from '../../../src/main/core/permission/audit-log';
import { redactText, summarizeInput } from '../../../src/main/core/permission/redact';

let dir: string;
beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-audit-')));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const allow = { decision: 'allow', source: 'mode', rule: null, reason: 'default mode' } as const;

describe('redaction', () => {
  it('removes keys, tokens and passwords', () => {
    const secrets = [
      'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUv',
      'sk-proj-AbCdEfGhIjKlMnOpQrStUvWx',
      'ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123',
      'AKIAABCDEFGHIJKLMNOP',
      'eyJhbGciOiJIUzI1NiJ9.payload.sig',
    ];
    const text = `curl -H "Authorization: Bearer ${secrets[4]}" -d password=hunter2 --key ${secrets[0]} ${secrets[1]} ${secrets[2]} ${secrets[3]} API_TOKEN=abc123 https://u:pw@host/`;
    const out = redactText(text);
    for (const s of [...secrets, 'hunter2', 'abc123', ':pw@']) expect(out).not.toContain(s);
    expect(out).toContain('curl -H');
  });
  it('drops .env contents whole', () => {
    const s = summarizeInput('write_file', { path: 'config/.env.local', content: 'DB=postgres://x\nPLAIN=value\n' });
    expect(JSON.stringify(s)).not.toContain('postgres');
    expect(JSON.stringify(s)).not.toContain('value');
    expect(s.path).toBe('config/.env.local');
  });
});

describe('AuditLog', () => {
  it('appends one JSON line per decision with the required fields, in order, once flushed', async () => {
    const log = new AuditLog({ configDir: dir });
    log.record(
      's1',
      { tool: 'run_command', input: { command: 'export GITHUB_TOKEN=ghp_AbCdEfGhIjKlMnOpQrStUvWx && gh pr list' } },
      allow,
    );
    log.record('s1', 'garbage', { ...allow, decision: 'deny', source: 'schema' });
    await log.flush();
    const lines = fs
      .readFileSync(path.join(dir, 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    expect(Object.keys(lines[0]).sort()).toEqual([
      'decision',
      'input',
      'reason',
      'rule',
      'session',
      'source',
      'time',
      'tool',
    ]);
    expect(JSON.stringify(lines[0])).not.toContain('ghp_AbCd');
    expect(lines[1].tool).toBe('(malformed call)');
  });
  it('rotates by size and keeps N files', async () => {
    const log = new AuditLog({ configDir: dir, maxBytes: 2000, keep: 3 });
    for (let i = 0; i < 100; i++) log.record('s', { tool: 'read_file', input: { path: `f${i}.ts` } }, allow);
    await log.flush();
    const files = fs.readdirSync(dir).sort();
    expect(files).toEqual(['audit.jsonl', 'audit.jsonl.1', 'audit.jsonl.2', 'audit.jsonl.3']);
    for (const f of files) expect(fs.statSync(path.join(dir, f)).size).toBeLessThanOrEqual(2000);
    expect(fs.readFileSync(path.join(dir, 'audit.jsonl'), 'utf8')).toContain('f99.ts');
  });
});
