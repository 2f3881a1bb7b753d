import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addMcpServer, removeMcpServer, updateMcpServer } from '../../../src/main/core/mcp/mcp-writer';
import { parseSettingsText } from '../../../src/main/core/settings/parse-settings';
import { GatehouseError } from '../../../src/shared/errors';
import type { McpScope } from '../../../src/shared/mcp-view-contract';
import { McpChannels } from '../../../src/shared/mcp-view-contract';

// The one writer of MCP servers (`gatehouse mcp add|remove` and the MCP page), on real files: every name and entry is
// checked whoever calls, only a scope's settings.yaml is ever written, and a refused request writes nothing.

let root: string;
let place: { projectRoot: string; configDir: string };
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-mcp-writer-')));
  place = { projectRoot: path.join(root, 'project'), configDir: path.join(root, 'config') };
  fs.mkdirSync(place.projectRoot, { recursive: true });
  fs.mkdirSync(place.configDir, { recursive: true });
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

/** Every file under the temp root (what a refused request must leave as it was). */
function allFiles(dir = root): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? allFiles(path.join(dir, e.name)) : [path.join(dir, e.name)]))
    .sort();
}

async function refused(run: () => Promise<unknown>, message: RegExp): Promise<void> {
  const before = allFiles();
  const err = await run().then(
    () => null,
    (e: unknown) => e,
  );
  expect(err, 'the request should be refused').toBeInstanceOf(GatehouseError);
  expect((err as GatehouseError).code).toBe('BAD_REQUEST');
  expect((err as GatehouseError).message).toMatch(message);
  expect(allFiles()).toEqual(before);
}

const servers = (file: string) => {
  const parsed = parseSettingsText(file, fs.readFileSync(file, 'utf8'));
  if (!parsed.ok) throw new Error(parsed.error.reason);
  return Object.fromEntries((parsed.settings.mcpServers ?? []).map((s) => [s.name, s.entry]));
};

describe('the MCP writer writes only the scope settings.yaml', () => {
  it('user, project and local land in their own file; local is kept out of git', async () => {
    execFileSync('git', ['init', '-q', place.projectRoot]);
    const entry = { command: 'npx', args: ['-y', 'some server', ''], allowedDomains: ['api.github.com'] };
    const files = {
      user: path.join(place.configDir, 'settings.yaml'),
      project: path.join(place.projectRoot, '.gatehouse', 'settings.yaml'),
      local: path.join(place.projectRoot, '.gatehouse', 'settings.local.yaml'),
    };
    for (const scope of ['user', 'project', 'local'] as const) {
      expect(await addMcpServer(place, { name: `gh-${scope}`, scope, entry })).toEqual({ file: files[scope] });
      expect(servers(files[scope])).toEqual({ [`gh-${scope}`]: entry });
    }
    expect(fs.readFileSync(path.join(place.projectRoot, '.git', 'info', 'exclude'), 'utf8')).toContain(
      '.gatehouse/settings.local.yaml',
    );
    // A path to a program may hold spaces: it is run as is, never split.
    await addMcpServer(place, { name: 'spaced', scope: 'user', entry: { command: '/opt/My Tools/server' } });
    expect(servers(files.user).spaced).toEqual({ command: '/opt/My Tools/server' });
  });

  it('refuses a name that is taken in that file, and a file that does not parse (never overwritten)', async () => {
    await addMcpServer(place, { name: 'one', scope: 'user', entry: { command: 'a' } });
    await refused(() => addMcpServer(place, { name: 'one', scope: 'user', entry: { command: 'b' } }), /already has/);
    fs.writeFileSync(path.join(place.configDir, 'settings.yaml'), 'mcpServers: [\n');
    await refused(() => addMcpServer(place, { name: 'two', scope: 'user', entry: { command: 'b' } }), /not valid YAML/);
  });

  it('refuses bad names, traversal included', async () => {
    for (const name of [
      '../evil',
      'a/b',
      '..',
      '.hidden',
      'a__b',
      '_a',
      'a_',
      'with space',
      '',
      'x'.repeat(65),
      'a\nb',
    ])
      await refused(() => addMcpServer(place, { name, scope: 'project', entry: { command: 'x' } }), /name|server/);
  });

  it('refuses a scope that is not one (no path reaches the writer) and fields it does not know', async () => {
    await refused(
      () => addMcpServer(place, { name: 'x', scope: '../../etc' as McpScope, entry: { command: 'x' } }),
      /scope must be user, project or local/,
    );
    await refused(
      () => addMcpServer(place, { name: 'x', scope: 'user', entry: { command: 'x', file: '/etc/passwd' } }),
      /file/,
    );
    // The page's request is checked at the boundary too: strict, no file of the caller's.
    const request = { name: 'x', scope: 'user', entry: { command: 'x' } };
    expect(McpChannels.addMcpServer.request.safeParse(request).success).toBe(true);
    expect(McpChannels.addMcpServer.request.safeParse({ ...request, file: '/etc/passwd' }).success).toBe(false);
    expect(McpChannels.addMcpServer.request.safeParse({ ...request, scope: '../x' }).success).toBe(false);
  });

  it('refuses commands and entries a person surely did not mean', async () => {
    const bad: [unknown, RegExp][] = [
      [{ command: '' }, /command/],
      [{ command: 'npx -y some-server' }, /holds spaces: give the program alone/],
      [{ command: ' npx' }, /must not start or end with a space/],
      [{ command: 'npx\n--evil' }, /control characters/],
      [{ command: 'np\u0000x' }, /control characters/],
      [{ command: 'node', args: ['ok', 'x\u0000y'] }, /args\.1: must not hold a NUL/],
      [{ command: 'node', env: { 'A-B': '1' } }, /env\.A-B/],
      [{ command: 'node', env: { A: 'x\u0000' } }, /env\.A/],
      [{ command: 'node', allowedDomains: ['evil.com/path'] }, /host name/],
      [{ type: 'http', url: 'file:///etc/passwd' }, /http:\/\/ or https:\/\//],
      [{ type: 'http', url: 'javascript:alert(1)' }, /http:\/\/ or https:\/\//],
      [{ type: 'http', url: 'https://x.example/mcp', headers: { 'X-A': 'v\r\nX-Injected: 1' } }, /one line/],
      [{ type: 'http', url: 'https://x.example/mcp', headers: { 'Bad Name': 'v' } }, /not an HTTP header name/],
      [{ type: 'sse', url: 'https://x.example/sse' }, /./],
      [{ command: 'node', url: 'https://x' }, /url/],
    ];
    for (const [entry, message] of bad)
      await refused(() => addMcpServer(place, { name: 'srv', scope: 'local', entry }), message);
  });
});

describe('edit and remove', () => {
  const project = () => path.join(place.projectRoot, '.gatehouse', 'settings.yaml');
  const local = () => path.join(place.projectRoot, '.gatehouse', 'settings.local.yaml');

  it('edits in place (comments kept), renames and moves scope (written first, then removed), removes', async () => {
    fs.mkdirSync(path.dirname(project()), { recursive: true });
    fs.writeFileSync(project(), '# the team servers\nmcpServers:\n  docs: { command: docs-mcp }\n');
    await updateMcpServer(
      place,
      { name: 'docs', scope: 'project' },
      { name: 'docs', scope: 'project', entry: { command: 'docs-mcp', args: ['--ro'] } },
    );
    expect(fs.readFileSync(project(), 'utf8')).toContain('# the team servers');
    expect(servers(project())).toEqual({ docs: { command: 'docs-mcp', args: ['--ro'] } });
    expect(
      await updateMcpServer(
        place,
        { name: 'docs', scope: 'project' },
        { name: 'docs2', scope: 'local', entry: { command: 'docs-mcp' } },
      ),
    ).toEqual({ file: local() });
    expect(servers(project())).toEqual({});
    expect(servers(local())).toEqual({ docs2: { command: 'docs-mcp' } });
    expect(await removeMcpServer(place, { name: 'docs2', scope: 'local' })).toEqual({ file: local() });
    expect(servers(local())).toEqual({});
  });

  it('an edit or removal of a server that is not there is NOT_FOUND and writes nothing', async () => {
    const before = allFiles();
    for (const run of [
      () => removeMcpServer(place, { name: 'ghost', scope: 'user' }),
      () =>
        updateMcpServer(
          place,
          { name: 'ghost', scope: 'user' },
          { name: 'ghost', scope: 'user', entry: { command: 'x' } },
        ),
      () =>
        updateMcpServer(
          place,
          { name: 'ghost', scope: 'user' },
          { name: 'moved', scope: 'local', entry: { command: 'x' } },
        ),
    ])
      await expect(run()).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(allFiles()).toEqual(before);
  });

  it('an edit is checked like an addition', async () => {
    await addMcpServer(place, { name: 'ok', scope: 'user', entry: { command: 'x' } });
    await refused(
      () =>
        updateMcpServer(
          place,
          { name: 'ok', scope: 'user' },
          { name: 'ok', scope: 'user', entry: { command: 'rm -rf /' } },
        ),
      /holds spaces/,
    );
    await refused(
      () =>
        updateMcpServer(
          place,
          { name: 'ok', scope: 'user' },
          { name: '../ok', scope: 'user', entry: { command: 'x' } },
        ),
      /not a server name/,
    );
  });
});
