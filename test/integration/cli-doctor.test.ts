import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeWorld, noBwrapReason, type SandboxWorld } from '../unit/sandbox/support';
import {
  buildIdOf,
  cli,
  fakeHelper,
  gatehouse,
  removeCli,
  startHelper,
  stopHelper,
  type Helper,
} from './decision-helper-support';

// `gatehouse doctor`, the built CLI on a real world: a runtime folder with a session bus and a real decision helper,
// a socket the person opened, a project that tries to open one too.

describe.skipIf(noBwrapReason !== null)(
  `gatehouse doctor${noBwrapReason ? ` (skipped: ${noBwrapReason})` : ''}`,
  { timeout: 120_000 },
  () => {
    let world: SandboxWorld;
    let runtime: string;
    let helper: Helper;
    let env: NodeJS.ProcessEnv;
    let agent: string;
    const servers: net.Server[] = [];

    async function listen(where: string): Promise<string> {
      const server = net.createServer((c) => c.destroy());
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(where, resolve));
      return where;
    }

    beforeAll(async () => {
      world = makeWorld();
      runtime = path.join(world.root, 'run');
      fs.mkdirSync(runtime, { mode: 0o700 });
      await listen(path.join(runtime, 'bus'));
      agent = await listen(path.join(runtime, 'ssh-agent.socket'));
      env = {
        PATH: process.env.PATH,
        HOME: world.home,
        GATEHOUSE_HOME: world.userConfigDir,
        GATEHOUSE_POLICY: path.join(world.root, 'no-policy.yaml'),
        XDG_RUNTIME_DIR: runtime,
        XDG_CACHE_HOME: path.join(world.root, 'cache'),
        SSH_AUTH_SOCK: agent,
        GATEHOUSE_DECISION_HELPER_IDLE_MS: '600000',
      };
      fs.writeFileSync(path.join(world.userConfigDir, 'settings.yaml'), `sandbox:\n  allowUnixSockets: ['${agent}']\n`);
      fs.mkdirSync(path.join(world.project, '.gatehouse'));
      fs.writeFileSync(
        path.join(world.project, '.gatehouse', 'settings.yaml'),
        'sandbox:\n  allowUnixSockets: [/var/run/docker.sock]\n',
      );
      helper = await startHelper(env);
    });
    afterAll(async () => {
      if (helper) await stopHelper(helper);
      for (const s of servers) await new Promise<void>((resolve) => s.close(() => resolve()));
      world?.remove();
      removeCli();
    });

    it('reports the sandbox, the doors it masks, the socket opened on purpose, and a helper that authenticates', async () => {
      const run = await gatehouse(env, ['doctor', '--project', world.project, '--json']);
      expect(run.code, run.err).toBe(0);
      const report = JSON.parse(run.out) as {
        sandbox: Record<string, unknown> & { doors: { folders: string[] }; problems: string[] };
        decisionHelper: { running: { socket: string; authenticates: boolean | null }[] };
      };
      expect(report.sandbox).toMatchObject({
        enabled: true,
        available: true,
        mechanism: 'bubblewrap',
        everyCommandAsks: false,
        opened: [{ path: agent, present: true }],
        keptVariables: ['SSH_AUTH_SOCK'],
      });
      expect(report.sandbox.doors.folders).toContain(runtime);
      expect(report.sandbox.problems).toEqual([
        expect.stringMatching(
          /\.gatehouse\/settings\.yaml: sandbox\.allowUnixSockets is ignored: only your user settings/,
        ),
      ]);
      const socket = path.join(runtime, `gatehouse-${process.getuid!()}`, `${buildIdOf(cli())}.sock`);
      expect(report.decisionHelper.running).toEqual([
        { socket, authenticates: true, detail: 'refuses a request without its secret' },
      ]);
      const text = await gatehouse(env, ['doctor', '--project', world.project]);
      expect(text.out).toContain('sandbox: bubblewrap (works: a real probe ran in it)');
      expect(text.out).toContain(`  ${runtime}/`);
      expect(text.out).toContain(
        `opened on purpose (sandbox.allowUnixSockets):\n  ${agent}\n  kept in the environment: SSH_AUTH_SOCK`,
      );
    });

    it('says that without bubblewrap every command asks a person, and fails', async () => {
      const run = await gatehouse({ ...env, GATEHOUSE_BWRAP: '/nonexistent/bwrap' }, [
        'doctor',
        '--project',
        world.project,
      ]);
      expect(run.code).toBe(1);
      expect(run.out).toContain('sandbox: unavailable: bubblewrap was not found at /nonexistent/bwrap');
      expect(run.out).toContain('every command asks a person first');
    });

    it('fails on a helper that runs requests without a secret (an older build)', async () => {
      const old = path.join(runtime, `gatehouse-${process.getuid!()}`, '0123456789abcdef.sock');
      const fake = await fakeHelper(old, (s) => s.write(`${JSON.stringify({ type: 'start', pid: 42 })}\n`));
      try {
        const run = await gatehouse(env, ['doctor', '--project', world.project]);
        expect(run.code).toBe(1);
        expect(run.out).toContain(`${old}: does not check a secret`);
      } finally {
        await fake.close();
        fs.rmSync(old, { force: true });
      }
    });
  },
);
