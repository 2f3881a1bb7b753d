import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeWorkerHost } from '../../src/main/services/worker-host/node-worker-host';
import type { WorkerSupervisor } from '../../src/main/services/worker-host/supervisor';
import type { ReadableResult } from '../../src/shared/worker-protocol';
import { reply, text, toolUse } from '../support/fake-anthropic';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { runGatehouse, sentToolResults, withFakeModel } from './agent-helpers';
import type { Sandbox } from './agent-helpers';

// Project-wide searches through the real agent path: `gatehouse run` (the built bundle: main, its engine, the real
// worker process) against the loopback Messages API. What read_file may not read without asking never shows.

let fake: FakeAnthropic;
let box: Sandbox;
withFakeModel((f, b) => {
  fake = f;
  box = b;
});

function writeProject(): void {
  const put = (rel: string, content: string): void => {
    fs.mkdirSync(path.dirname(path.join(box.project, rel)), { recursive: true });
    fs.writeFileSync(path.join(box.project, rel), content);
  };
  put('src/app.ts', 'const key = 1;\n');
  put('secrets/key.txt', 'key SECRET-VALUE-123\n');
  put('.env', 'key=ENV-SECRET\n');
  put('docs/ünï côdé.md', 'key unicode\n');
  put('.gatehouse/settings.yaml', 'permissions:\n  deny: ["Read(./secrets/**)"]\n');
  fs.symlinkSync(path.join(box.project, 'secrets/key.txt'), path.join(box.project, 'src/link.txt'));
}

async function searchBoth(): Promise<{ search: string; find: string }> {
  fake.enqueue(
    reply(toolUse('toolu_s', 'search_code', { pattern: 'key' }), toolUse('toolu_f', 'find_files', { pattern: '**/*' })),
    reply(text('Done.')),
  );
  const r = await runGatehouse(['run', '--project', box.project, 'find the key'], box.env, box.home);
  expect(r.code, r.stderr).toBe(0);
  const results = sentToolResults(fake.requests[1]!.body);
  const byId = (id: string): Record<string, unknown> => results.find((b) => b.tool_use_id === id) ?? {};
  expect(byId('toolu_s').is_error).toBe(false);
  expect(byId('toolu_f').is_error).toBe(false);
  return { search: String(byId('toolu_s').content), find: String(byId('toolu_f').content) };
}

const lines = (content: string): string[] => content.split('\n').filter((l) => !l.startsWith('('));

describe('search_code and find_files through the agent', () => {
  it('leave out the denied folder, .env and a symlink to a denied file, name them, and show none of their contents', async () => {
    writeProject();
    const { search, find } = await searchBoth();
    expect(lines(search)).toEqual(['docs/ünï côdé.md:1:key unicode', 'src/app.ts:1:const key = 1;']);
    expect(search).toContain(
      '(2 files left out: reading them is denied or needs approval — .env, secrets/key.txt; ask to read one with read_file)',
    );
    expect(lines(find)).toEqual(['.gatehouse/settings.yaml', 'docs/ünï côdé.md', 'src/app.ts']);
    expect(find).toContain(
      '(3 files left out: reading them is denied or needs approval — .env, secrets/key.txt, src/link.txt; ask to read one with read_file)',
    );
    for (const content of [search, find]) {
      expect(content).not.toContain('SECRET-VALUE-123');
      expect(content).not.toContain('ENV-SECRET');
    }
    // The filter is not audited as calls of its own: the log holds the two search decisions, no read_file.
    const audit = fs.readFileSync(path.join(box.configDir, 'audit.jsonl'), 'utf8');
    expect(audit).toContain('search_code');
    expect(audit).not.toContain('read_file');
  });

  it('an allow rule Read(.env) makes .env visible again', async () => {
    writeProject();
    fs.writeFileSync(path.join(box.configDir, 'settings.yaml'), 'permissions:\n  allow: ["Read(.env)"]\n');
    const { search, find } = await searchBoth();
    expect(search).toContain('.env:1:key=ENV-SECRET');
    expect(search).toContain('(1 file left out: reading it is denied or needs approval — secrets/key.txt;');
    expect(lines(find)).toContain('.env');
    expect(search).not.toContain('SECRET-VALUE-123');
  });
});

describe('a worker whose main does not answer the read check', () => {
  const hosts: WorkerSupervisor[] = [];
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((h) => h.stop()));
  });

  async function runSearch(
    readable: ((paths: string[]) => Promise<ReadableResult>) | null,
  ): Promise<Record<string, unknown>> {
    writeProject();
    const host = createNodeWorkerHost({ configDir: box.configDir, env: box.env });
    hosts.push(host);
    host.handle('permission.request', async () => ({ decision: 'allow', source: 'mode', rule: null, reason: 'test' }));
    if (readable) host.handle('permission.readable', async (request) => readable(request.paths));
    await host.start();
    fake.enqueue(reply(toolUse('toolu_s', 'search_code', { pattern: 'key' })), reply(text('Done.')));
    const result = await host.request(
      'agent.run',
      {
        runId: 'r1',
        task: 'find the key',
        agentMode: 'do',
        model: 'claude-test',
        maxTurns: 3,
        projectRoot: box.project,
        additionalDirectories: [],
        provider: { apiKey: fake.apiKey, baseURL: fake.baseURL },
        readCheckTimeoutMs: 300,
      },
      { timeoutMs: 30_000 },
    );
    expect(result.status).toBe('completed');
    const [block] = sentToolResults(fake.requests[1]!.body);
    return block ?? {};
  }

  it('never answers: a tool error, not results', async () => {
    const block = await runSearch(() => new Promise(() => undefined));
    expect(block.is_error).toBe(true);
    expect(String(block.content)).toMatch(/^read_check_failed: .*no answer within 300 ms/);
    expect(String(block.content)).not.toMatch(/SECRET|src\/app\.ts/);
  });

  it('answers malformed: a tool error, not results', async () => {
    const malformed = await runSearch(async () => ({ hidden: 'everything' }) as unknown as ReadableResult);
    expect(malformed.is_error).toBe(true);
    expect(String(malformed.content)).toMatch(/^read_check_failed: /);
    expect(String(malformed.content)).not.toMatch(/SECRET|src\/app\.ts/);
  });

  it('has no such method: a tool error, not results', async () => {
    const missing = await runSearch(null);
    expect(missing.is_error).toBe(true);
    expect(String(missing.content)).toMatch(/^read_check_failed: .*no method/);
  });
});
