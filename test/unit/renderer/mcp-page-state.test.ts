import { describe, expect, it } from 'vitest';
import type { McpServerView } from '../../../src/shared/mcp-view-contract';
import { entryFromForm, formFromEntry } from '../../../src/renderer/src/mcp/mcp-form';
import { serverState } from '../../../src/renderer/src/mcp/McpServersTable';

const server = (extra: Partial<McpServerView> = {}): McpServerView => ({
  name: 'srv',
  source: 'user',
  file: '/c/settings.yaml',
  transport: 'stdio',
  shown: 'node srv.js',
  active: true,
  inactiveReason: null,
  needsApproval: false,
  approved: false,
  disabled: false,
  lastRun: null,
  lastRunAt: null,
  lastTest: null,
  editableScope: 'user',
  readOnlyReason: null,
  entry: { command: 'node', args: ['srv.js'] },
  ...extra,
});
const run = (state: 'ready' | 'failed', errors: string[] = []) => ({
  name: 'srv',
  state,
  tools: [],
  skipped: [],
  errors,
});

describe("the MCP page's state badge follows the last test or prompt, whichever came later", () => {
  it('a test that did not start: never "loads"', () => {
    const s = serverState(
      server({
        lastTest: { state: 'failed', tools: 0, error: 'could not start: exited (code 3)', at: '2030-01-01T00:00:02Z' },
      }),
    );
    expect(s).toEqual({
      text: 'did not start',
      tone: 'bad',
      detail: 'last test',
      error: 'could not start: exited (code 3)',
    });
  });
  it('a later prompt that connected wins over an earlier failed test, and the other way round', () => {
    const failedTest = { state: 'failed' as const, tools: 0, error: 'boom', at: '2030-01-01T00:00:01Z' };
    expect(
      serverState(server({ lastTest: failedTest, lastRun: run('ready'), lastRunAt: '2030-01-01T00:00:05Z' })).text,
    ).toBe('connected');
    expect(
      serverState(server({ lastTest: failedTest, lastRun: run('ready'), lastRunAt: '2030-01-01T00:00:00Z' })).text,
    ).toBe('did not start');
  });
  it('untested: "loads", not tested yet; not loading: neutral', () => {
    expect(serverState(server())).toMatchObject({ text: 'loads', detail: 'not tested yet' });
    expect(serverState(server({ active: false, inactiveReason: 'this project is not trusted' }))).toMatchObject({
      text: 'does not load',
      tone: 'muted',
      detail: 'this project is not trusted',
    });
  });
});

describe('the MCP server form', () => {
  it('round-trips an entry: arguments one per line (spaces and an empty one kept), env, names, domains, timeout', () => {
    const entry = {
      command: 'npx',
      args: ['-y', 'a server', ''],
      env: { MODE: 'ro=yes' },
      envAllowList: ['GITHUB_TOKEN', 'HOME2'],
      allowedDomains: ['api.github.com'],
      timeout: 5000,
    };
    expect(entryFromForm(formFromEntry('gh', entry), entry)).toEqual({ ok: true, entry });
    const http = { type: 'http' as const, url: 'https://x.example/mcp', headers: { 'X-Team': 'core: a' } };
    expect(entryFromForm(formFromEntry('docs', http), http)).toEqual({ ok: true, entry: http });
  });
  it('says which line is not NAME=value or Name: value', () => {
    const form = { ...formFromEntry('x', null), command: 'node', env: 'GOOD=1\nbad line' };
    expect(entryFromForm(form, null)).toEqual({
      ok: false,
      error: 'Environment variables: "bad line" is not NAME=value',
    });
    const http = { ...formFromEntry('x', null), transport: 'http' as const, url: 'https://x', headers: 'nocolon' };
    expect(entryFromForm(http, null)).toMatchObject({ ok: false });
  });
});
