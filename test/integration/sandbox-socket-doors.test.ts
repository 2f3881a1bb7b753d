import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hookSandbox } from '../../src/main/core/hooks/hook-sandbox';
import { sandboxRunConfig } from '../../src/main/core/sandbox/run-config';
import { createCommandSandbox } from '../../src/sandbox/command-sandbox';
import type { ActiveMcpServer } from '../../src/shared/mcp-contract';
import type { SandboxRunConfig } from '../../src/shared/worker-protocol';
import { CommandConfinement } from '../../src/worker/command-confinement';
import { McpSandboxes } from '../../src/worker/mcp/mcp-spawn';
import { makeWorld, noBwrapReason, socatPath, type SandboxWorld } from '../unit/sandbox/support';
import { buildIdOf, cli, removeCli, startHelper, stopHelper, type Helper } from './decision-helper-support';

// The socket probe of issue 44 (item 1). Real doors are planted on the host first: listening sockets in a runtime
// folder (session bus, ssh agent, gpg agent, rootless docker), one in the project, one in the home, one in a folder
// of some other service, one renamed after it was bound, an abstract one, and a real decision helper. Then a probe
// runs inside the real sandbox through each path a process takes into it (a command through the worker's
// confinement, a project hook through main's hook sandbox, a stdio MCP server through the worker's MCP spawn) and
// tries to connect() to every socket it can find; only the network proxy's own socket may answer.

const PROBE_SOURCE = path.join(__dirname, '..', 'support', 'socket-probe.mjs');
const PROXY_SOCKET = '/tmp/.gatehouse-net/proxy.sock';

interface ProbeLine {
  target?: string;
  reached?: boolean;
  why?: string;
  done?: boolean;
}

function run(file: string, args: string[], env: Record<string, string>, cwd: string): Promise<string> {
  return new Promise((resolve) => {
    execFile(file, args, { env, cwd, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }, (_err, stdout, stderr) =>
      resolve(`${stdout}${stderr}`),
    );
  });
}

/** The targets the probe reached, after checking that it ran to its end. */
function reached(output: string): string[] {
  const lines = output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as ProbeLine);
  expect(lines.at(-1), output).toEqual({ done: true });
  return lines.filter((l) => l.reached).map((l) => l.target!);
}

describe.skipIf(noBwrapReason !== null)(
  `no privileged door inside the sandbox (real bubblewrap, real sockets${noBwrapReason ? `; skipped: ${noBwrapReason}` : ''})`,
  { timeout: 180_000 },
  () => {
    let world: SandboxWorld;
    let runtime: string;
    let helper: Helper;
    let helperSocket: string;
    let hostEnv: Record<string, string>;
    let targetsFile: string;
    let probe: string;
    const doors: Record<string, string> = {};
    const servers: net.Server[] = [];
    const abstract = `\0gatehouse-door-test-${process.pid}`;

    async function listen(where: string): Promise<string> {
      if (!where.startsWith('\0')) fs.mkdirSync(path.dirname(where), { recursive: true });
      const server = net.createServer((c) => {
        c.on('error', () => undefined); // the probe hangs up at once
        c.end('door\n');
      });
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(where, resolve));
      return where;
    }

    beforeAll(async () => {
      world = makeWorld(); // outside /tmp: a sandbox would see it all, unless masked
      runtime = path.join(world.root, 'run');
      fs.mkdirSync(path.join(runtime, 'gnupg'), { recursive: true, mode: 0o700 });
      fs.chmodSync(runtime, 0o700);
      doors.bus = await listen(path.join(runtime, 'bus'));
      doors.sshAgent = await listen(path.join(runtime, 'ssh-agent.socket'));
      doors.gpgAgent = await listen(path.join(runtime, 'gnupg', 'S.gpg-agent'));
      doors.docker = await listen(path.join(runtime, 'docker.sock'));
      doors.project = await listen(path.join(world.project, 'dev-server.sock'));
      doors.home = await listen(path.join(world.home, '.agent.sock'));
      fs.mkdirSync(path.join(world.outside, 'db'));
      fs.writeFileSync(path.join(world.outside, 'db', 'postgresql.conf'), 'listen_addresses = ""\n');
      doors.database = await listen(path.join(world.outside, 'db', '.s.PGSQL.5432'));
      const bound = await listen(path.join(world.outside, 'svc', 'api.sock.tmp'));
      doors.renamed = path.join(world.outside, 'svc', 'api.sock');
      fs.renameSync(bound, doors.renamed);
      doors.abstract = await listen(abstract);
      hostEnv = {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: world.home,
        GATEHOUSE_HOME: world.userConfigDir,
        XDG_RUNTIME_DIR: runtime,
        XDG_CACHE_HOME: path.join(world.root, 'cache'),
        SSH_AUTH_SOCK: doors.sshAgent,
        DBUS_SESSION_BUS_ADDRESS: `unix:path=${doors.bus}`,
        DOCKER_HOST: `unix://${doors.docker}`,
        GATEHOUSE_DECISION_HELPER_IDLE_MS: '600000',
      };
      helper = await startHelper(hostEnv);
      helperSocket = path.join(runtime, `gatehouse-${process.getuid!()}`, `${buildIdOf(cli())}.sock`);
      doors.helper = helperSocket;
      // The probe runs from the world's folder: a clone under /tmp is out of sight in the sandbox (its /tmp is its own).
      probe = path.join(world.outside, 'socket-probe.mjs');
      fs.copyFileSync(PROBE_SOURCE, probe);
      targetsFile = path.join(world.outside, 'targets.json');
      fs.writeFileSync(targetsFile, JSON.stringify(Object.values(doors)));
      // A network to reach: the proxy's own socket is the one socket the sandbox may use.
      fs.writeFileSync(
        path.join(world.userConfigDir, 'settings.yaml'),
        socatPath ? 'sandbox:\n  network:\n    allowedDomains: [example.com]\n' : '',
      );
    });
    afterAll(async () => {
      if (helper) await stopHelper(helper);
      for (const s of servers) await new Promise<void>((resolve) => s.close(() => resolve()));
      world?.remove();
      removeCli();
    });

    /** The sandbox configuration main sends the worker for this project, from the host's environment. */
    const runConfig = async (): Promise<SandboxRunConfig> =>
      (
        await sandboxRunConfig({
          configDir: world.userConfigDir,
          projectRoot: world.project,
          projectTrusted: true,
          env: hostEnv,
        })
      ).config;
    const probeArgs = (): string[] => [probe, '--targets', targetsFile, world.root, '/run', '/var/run'];
    const probeCommand = (): string => ['node', ...probeArgs()].map((a) => `'${a}'`).join(' ');
    const allowed = (): string[] => (socatPath ? [PROXY_SOCKET] : []);

    it('control: outside any sandbox the probe reaches every door planted (so the test can fail)', async () => {
      const out = await run(process.execPath, probeArgs(), hostEnv, world.project);
      const got = reached(out).map((t) => t.replace(/^@/, '\0'));
      expect(got).toEqual(expect.arrayContaining(Object.values(doors)));
    });

    it('a command (the worker’s run_command path) reaches no socket but the network proxy’s own', async () => {
      const config = await runConfig();
      const confinement = new CommandConfinement();
      try {
        const { wrapper, status } = await confinement.resolve(world.project, [], config);
        expect(status).toMatchObject({ available: true, mechanism: 'bubblewrap' });
        const w = await wrapper.wrap(probeCommand());
        const out = await run(w.file, w.args, w.env, w.cwd);
        await w.cleanup?.();
        expect(reached(out)).toEqual(allowed());
        // every planted door was tried (abstract included), and none answered
        for (const door of Object.values(doors)) expect(out).toContain(JSON.stringify(door.replace(/^\0/, '@')));
        // nothing in the environment names a door
        const env = await run(w.file, [...w.args.slice(0, -1), 'env'], w.env, w.cwd);
        expect(env).not.toMatch(/SSH_AUTH_SOCK|DBUS_SESSION_BUS_ADDRESS|DOCKER_HOST|XDG_RUNTIME_DIR/);
      } finally {
        await confinement.dispose();
      }
    });

    it('a read-only command reaches none, and its doors are masked, not only refused by its seccomp filter', async () => {
      const config = await runConfig();
      const confinement = new CommandConfinement();
      try {
        const { wrapper } = await confinement.resolve(world.project, [], config);
        const w = await wrapper.wrapReadOnly!(probeCommand());
        expect(reached(await run(w.file, w.args, w.env, w.cwd))).toEqual([]); // not even a proxy
        // where there is no filter (another architecture), the masks alone hold: none of them is a socket in there
        const files = Object.values(doors).filter((d) => !d.startsWith('\0'));
        const check = `for f in ${files.map((f) => `'${f}'`).join(' ')}; do [ -S "$f" ] && echo "socket: $f"; done; echo checked`;
        const seen = await run(w.file, [...w.args.slice(0, -1), check], w.env, w.cwd);
        expect(seen).toContain('checked');
        expect(seen).not.toContain('socket:');
      } finally {
        await confinement.dispose();
      }
    });

    it('a project hook (main’s hook sandbox) reaches none either', async () => {
      const hooks = hookSandbox({ projectRoot: world.project, configDir: world.userConfigDir, env: hostEnv });
      try {
        const spec = await hooks.launch(probeCommand());
        if ('unavailable' in spec) throw new Error(spec.unavailable);
        const out = await run(spec.file, spec.args, spec.env, spec.cwd);
        await spec.cleanup?.();
        expect(reached(out)).toEqual(allowed());
      } finally {
        await hooks.dispose();
      }
    });

    it('a stdio MCP server (the worker’s MCP spawn) reaches none either', async () => {
      const config = await runConfig();
      const server: ActiveMcpServer = {
        name: 'probe',
        source: 'user',
        entry: { command: 'node', args: probeArgs() },
        readOnlyHints: false,
      };
      const sandboxes = new McpSandboxes(world.project, [], config);
      try {
        const spec = await sandboxes.spawnSpec(server);
        const out = await run(spec.file, spec.args, spec.env, spec.cwd);
        await spec.cleanup?.();
        expect(reached(out)).toEqual([]); // no allowedDomains for this server: no proxy at all
      } finally {
        await sandboxes.dispose();
      }
    });

    it('masks the host’s bound sockets even where nobody told it the runtime folder; the helper’s secret is hidden', async () => {
      const created = await createCommandSandbox(world.config({ baseEnv: { PATH: hostEnv.PATH!, HOME: world.home } }));
      if (created.kind !== 'sandbox') throw new Error(created.reason);
      try {
        const w = await created.wrap(
          `${probeCommand()}; cat '${helperSocket.replace(/\.sock$/, '.secret')}' && echo SECRET-READ`,
        );
        const out = await run(w.file, w.args, w.env, w.cwd);
        await w.cleanup?.();
        expect(
          reached(
            out
              .split('\n')
              .filter((l) => l.startsWith('{'))
              .join('\n'),
          ),
        ).toEqual([]);
        expect(out).not.toContain('SECRET-READ');
      } finally {
        await created.dispose();
      }
    });

    it('reaches a socket the person opened (sandbox.allowUnixSockets), and only it; SSH_AUTH_SOCK is kept', async () => {
      fs.writeFileSync(
        path.join(world.userConfigDir, 'settings.yaml'),
        `sandbox:\n  allowUnixSockets: ['${doors.sshAgent}']\n`,
      );
      // A project cannot open one (trusted or not): its file is reported, and its socket stays masked.
      fs.mkdirSync(path.join(world.project, '.gatehouse'), { recursive: true });
      fs.writeFileSync(
        path.join(world.project, '.gatehouse', 'settings.yaml'),
        `sandbox:\n  allowUnixSockets: ['${doors.docker}', '${helperSocket}']\n`,
      );
      const { config, problems } = await sandboxRunConfig({
        configDir: world.userConfigDir,
        projectRoot: world.project,
        projectTrusted: true,
        env: { ...hostEnv, SSH_AUTH_SOCK: doors.sshAgent },
      });
      expect(problems).toEqual([
        expect.stringMatching(/settings\.yaml: sandbox\.allowUnixSockets is ignored: only your user settings/),
      ]);
      const confinement = new CommandConfinement();
      try {
        const { wrapper } = await confinement.resolve(world.project, [], config);
        const w = await wrapper.wrap(`${probeCommand()}; echo "agent=$SSH_AUTH_SOCK"`);
        const out = await run(w.file, w.args, w.env, w.cwd);
        await w.cleanup?.();
        expect(
          reached(
            out
              .split('\n')
              .filter((l) => l.startsWith('{'))
              .join('\n'),
          ),
        ).toEqual([doors.sshAgent]);
        expect(out).toContain(`agent=${doors.sshAgent}`);
      } finally {
        await confinement.dispose();
        fs.rmSync(path.join(world.project, '.gatehouse'), { recursive: true, force: true });
      }
    });
  },
);
