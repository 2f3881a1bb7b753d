import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ActiveMcpServer } from '../../src/shared/mcp-contract';
import type { SandboxRunConfig } from '../../src/shared/worker-protocol';
import { startRunMcp, type RunMcp } from '../../src/worker/mcp/run-mcp';
import { Registry } from '../../src/worker/tools/registry';
import { stdioEntry } from '../support/mcp-servers';
import { makeWorld, noBwrapReason, socatPath, type SandboxWorld } from '../unit/sandbox/support';

const NOISE = 'NOISE-FROM-A-SHELL-STARTUP-FILE';

/**
 * A stdio MCP server is started as its entry says, without a shell: the person's shell start-up files (a ~/.bashrc
 * running `pyenv init`, which bash reads when its stdin is a socket, as a child's stdio pipes are) never print
 * into the server's error output, so the MCP page's error starts with what the server said. Real bubblewrap, real
 * processes, a real ~/.bashrc and ~/.bash_profile that shout.
 */
describe.skipIf(noBwrapReason !== null)(
  `MCP servers start without a shell${noBwrapReason ? ` (skipped: ${noBwrapReason})` : ''}`,
  () => {
    let world: SandboxWorld;
    let savedHome: string | undefined;
    let mcp: RunMcp | null = null;

    beforeEach(() => {
      world = makeWorld();
      for (const rc of ['.bashrc', '.bash_profile', '.profile'])
        fs.writeFileSync(path.join(world.home, rc), `echo "${NOISE} (${rc})" >&2\n`);
      savedHome = process.env.HOME;
      process.env.HOME = world.home;
    });

    afterEach(async () => {
      await mcp?.stop();
      mcp = null;
      if (savedHome === undefined) delete process.env.HOME;
      else process.env.HOME = savedHome;
      world.remove();
    });

    const config = (extra: Partial<SandboxRunConfig> = {}): SandboxRunConfig => ({
      enabled: true,
      allowedDomains: [],
      envAllowList: [],
      userConfigDir: world.userConfigDir,
      home: world.home,
      ...extra,
    });

    /** A server that fails at once, saying why on stderr; its arguments hold what a shell would expand. */
    const failing = (name: string): ActiveMcpServer => ({
      name,
      source: 'user',
      entry: {
        command: process.execPath,
        args: ['-e', 'process.stderr.write("real failure: " + process.argv[1] + "\\n"); process.exit(3)', '$HOME `id`'],
      },
      readOnlyHints: true,
    });

    const cases: [string, () => SandboxRunConfig][] = [
      ['in the sandbox', () => config()],
      ['with the sandbox turned off', () => config({ enabled: false })],
    ];
    if (socatPath)
      cases.push(['in the sandbox with a network allow-list', () => config({ allowedDomains: ['example.com'] })]);
    for (const [where, sandbox] of cases)
      it(`${where}: the error is the server's own, no start-up file ran, arguments reach it as written`, async () => {
        mcp = await startRunMcp(
          {
            mcpServers: [failing('bad'), { name: 'good', source: 'user', entry: stdioEntry(), readOnlyHints: true }],
            projectRoot: world.project,
            additionalDirectories: [],
            sandbox: sandbox(),
          },
          new Registry([], 0),
          { backoffMs: 50, maxRestarts: 0 },
        );
        const [bad, good] = mcp.servers.status();
        expect(good!.state).toBe('ready');
        expect(bad!.state).toBe('failed');
        const error = bad!.errors.join('\n');
        expect(error).toContain('real failure: $HOME `id`');
        expect(error).not.toContain(NOISE);
        expect(error).not.toContain(world.home);
      });
  },
);
