/**
 * The read-only profile with real bubblewrap, attacked the way the red team's classes ran code under a read-only
 * verdict: a ripgrep config that adds `--pre`, a login shell reading a planted profile, a repository whose
 * `.git/config` runs a program (core.fsmonitor, core.pager). The engine is fixed elsewhere to stop calling these
 * read-only; here the profile is forced on them, as if it had not been, and the code that then runs must not write
 * the project, the home or the workspace profile's /tmp, must not connect anywhere, and must not gain privileges.
 */
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommandSandbox } from '../../src/sandbox/command-sandbox';
import { type CommandSandbox, type WrappedCommand } from '../../src/sandbox/types';
import { shQuote } from '../../src/sandbox/bwrap-args';
import { findOnPath } from '../../src/sandbox/find-binary';
import { readOnlyProbeCommand } from '../../src/sandbox/read-only-profile';
import { readOnlySeccompProgram } from '../../src/sandbox/read-only-seccomp';
import { runInPty } from '../../src/worker/tools/run-command';
import {
  closeServer,
  curlPath,
  listenOnLoopback,
  makeWorld,
  noBwrapReason,
  runWrapped,
  socatPath,
  type SandboxWorld,
} from '../unit/sandbox/support';

/**
 * Runs a wrapped command with stdin closed, as run_command does (/dev/null): ripgrep searches a readable stdin
 * instead of the folder.
 */
function runClosed(w: WrappedCommand, timeoutMs = 20_000): Promise<{ exitCode: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(w.file, w.args, {
      env: w.env,
      cwd: w.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: timeoutMs,
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('close', (code) => {
      void Promise.resolve(w.cleanup?.()).then(() => resolve({ exitCode: code, output }));
    });
  });
}

const zshPath = await findOnPath('zsh');

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
  });

describe.skipIf(noBwrapReason !== null)(
  `the read-only profile (real bubblewrap${noBwrapReason ? `; skipped: ${noBwrapReason}` : ''})`,
  () => {
    let world: SandboxWorld;
    let sandbox: CommandSandbox;
    let listener: net.Server;
    let port = 0;
    let connections = 0;
    /** A unix socket on the disk (a stand-in for a session bus, an agent, a helper): read-only mounts do not stop connect(). */
    let unixListener: net.Server;
    let unixPath = '';
    let unixConnections = 0;
    /** The host folder the workspace profile mounts as /tmp (shared by its commands). */
    let workspaceTmp = '';

    beforeAll(async () => {
      world = makeWorld();
      listener = net.createServer((s) => {
        connections++;
        s.destroy();
      });
      port = await listenOnLoopback(listener);
      unixPath = path.join(world.outside, 'service.sock');
      unixListener = net.createServer((s) => {
        unixConnections++;
        s.destroy();
      });
      await new Promise<void>((resolve) => unixListener.listen(unixPath, resolve));
      const created = await createCommandSandbox(world.config());
      if (created.kind !== 'sandbox') throw new Error(`sandbox unavailable: ${created.reason}`);
      sandbox = created;
      const marker = `ws-marker-${process.pid}-${Date.now()}`;
      const r = await runWrapped(await sandbox.wrap(`echo x > /tmp/${marker}`));
      expect(r.exitCode).toBe(0);
      workspaceTmp = findFolderHolding(os.tmpdir(), marker) ?? '';
      expect(workspaceTmp, `no folder of ${os.tmpdir()} holds ${marker}`).not.toBe('');
    });
    afterAll(async () => {
      await sandbox?.dispose();
      if (listener) await closeServer(listener);
      if (unixListener) await closeServer(unixListener);
      world?.remove();
    });

    /** The host folder directly inside `base` that holds `name`. */
    function findFolderHolding(base: string, name: string): string | null {
      for (const entry of fs.readdirSync(base)) {
        if (fs.existsSync(path.join(base, entry, name))) return path.join(base, entry);
      }
      return null;
    }

    /**
     * What code that slipped past the analysis would try, one line each, on stdout and stderr (git keeps an
     * fsmonitor hook's stdout; ripgrep shows only the lines of its pre-processor's output that match).
     */
    function plantAttack(): string {
      const p = world.project;
      const script = [
        '#!/bin/bash',
        'report() { echo "TODO-REPORT $*"; echo "TODO-REPORT $*" >&2; }',
        'try() { local name=$1; shift; if "$@" </dev/null >/dev/null 2>&1; then report "ESCAPE $name"; else report "held $name"; fi; }',
        'report ATTACK-RAN',
        `try project-write sh -c 'echo pwned > "$0"' ${shQuote(path.join(p, 'pwned.txt'))}`,
        `try project-delete rm -f ${shQuote(path.join(p, 'notes.txt'))}`,
        `try git-hook-write sh -c 'echo pwned > "$0"' ${shQuote(path.join(p, '.git', 'hooks', 'pre-commit'))}`,
        `try home-write sh -c 'echo pwned > "$0"' ${shQuote(path.join(world.home, '.bashrc'))}`,
        `try outside-write sh -c 'echo pwned > "$0"' ${shQuote(path.join(world.outside, 'pwned.txt'))}`,
        `try workspace-tmp-write sh -c 'echo planted > "$0"' ${shQuote(path.join(workspaceTmp, 'planted-by-read-only'))}`,
        'echo planted > /tmp/planted-by-read-only',
        `try tcp-host-loopback bash -c 'exec 3<>/dev/tcp/127.0.0.1/${port}'`,
        'try dns getent hosts example.com',
        socatPath
          ? `try unix-socket ${socatPath} -u OPEN:/dev/null UNIX-CONNECT:${shQuote(unixPath)}`
          : `try unix-socket python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).connect(sys.argv[1])' ${shQuote(unixPath)}`,
        curlPath ? `try http ${curlPath} -sS -m 5 -o /dev/null http://example.com/` : 'report "held http"',
        'try ssh-key cat ' + shQuote(path.join(world.home, '.ssh', 'id_rsa')),
        'report "$(grep -E "^(NoNewPrivs|CapEff):" /proc/self/status | tr -s "\\t" " " | paste -sd ";")"',
        'exit 0',
        '',
      ].join('\n');
      fs.writeFileSync(path.join(p, '.attack.sh'), script, { mode: 0o755 });
      return path.join(p, '.attack.sh');
    }

    function repoWithNotes(): void {
      fs.writeFileSync(path.join(world.project, 'notes.txt'), 'TODO: write the tests\nsecond line\n');
      if (!fs.existsSync(path.join(world.project, '.git'))) {
        git(world.project, 'init', '-q', '-b', 'main');
        git(world.project, 'add', 'notes.txt');
        git(world.project, '-c', 'user.name=T', '-c', 'user.email=t@x', 'commit', '-qm', 'notes');
      }
    }

    function expectContained(output: string): void {
      expect(output, output).toContain('TODO-REPORT ATTACK-RAN'); // the planted code did run
      expect(output).not.toContain('ESCAPE');
      for (const what of ['project-write', 'project-delete', 'git-hook-write', 'home-write', 'outside-write'])
        expect(output).toContain(`held ${what}`);
      for (const what of ['workspace-tmp-write', 'tcp-host-loopback', 'unix-socket', 'dns', 'http', 'ssh-key'])
        expect(output).toContain(`held ${what}`);
      expect(output).toMatch(/CapEff: 0{16};NoNewPrivs: 1/);
      expect(fs.existsSync(path.join(world.project, 'pwned.txt'))).toBe(false);
      expect(fs.readFileSync(path.join(world.project, 'notes.txt'), 'utf8')).toContain('TODO');
      expect(fs.existsSync(path.join(world.project, '.git', 'hooks', 'pre-commit'))).toBe(false);
      expect(fs.existsSync(path.join(world.home, '.bashrc'))).toBe(false);
      expect(fs.existsSync(path.join(world.outside, 'pwned.txt'))).toBe(false);
      expect(fs.existsSync(path.join(workspaceTmp, 'planted-by-read-only'))).toBe(false);
      expect(connections).toBe(0);
      expect(unixConnections).toBe(0);
    }

    async function runReadOnly(command: string): Promise<{ exitCode: number | null; output: string }> {
      return runClosed(await sandbox.wrapReadOnly(command));
    }

    it('a ripgrep config that adds --pre: the pre-processor runs, and can neither write, connect nor escalate', async () => {
      repoWithNotes();
      const attack = plantAttack();
      fs.writeFileSync(path.join(world.project, '.ripgreprc'), `--pre=${attack}\n`);
      const r = await runReadOnly('RIPGREP_CONFIG_PATH=.ripgreprc rg TODO');
      expectContained(r.output);
      // The same command in the workspace profile does write the project: the profiles really differ.
      const w = await runClosed(await sandbox.wrap('RIPGREP_CONFIG_PATH=.ripgreprc rg TODO'));
      expect(w.output).toContain('ESCAPE project-write');
      unixConnections = 0; // (what the workspace profile may connect to is not this file's subject)
      // (it also left a file in its shared /tmp, which is what the later tests check the read-only runs never do)
      for (const f of [path.join(world.project, 'pwned.txt'), path.join(workspaceTmp, 'planted-by-read-only')])
        fs.rmSync(f);
      fs.rmSync(path.join(world.project, '.ripgreprc'));
      repoWithNotes(); // the workspace run deleted it
    });

    it('HOME=. bash -lc ls with a planted .bash_profile', async () => {
      repoWithNotes();
      plantAttack();
      fs.writeFileSync(path.join(world.project, '.bash_profile'), 'bash ./.attack.sh\n');
      const r = await runReadOnly('HOME=. bash -lc ls');
      expectContained(r.output);
      expect(r.output).toContain('notes.txt'); // and ls still lists
      fs.rmSync(path.join(world.project, '.bash_profile'));
    });

    it.skipIf(zshPath === null)(
      'ZDOTDIR=. zsh -c ls with a planted .zshenv (zsh reads it in every shell)',
      async () => {
        repoWithNotes();
        plantAttack();
        fs.writeFileSync(path.join(world.project, '.zshenv'), 'bash ./.attack.sh\n');
        try {
          const r = await runReadOnly('ZDOTDIR=. zsh -c ls');
          expectContained(r.output);
        } finally {
          fs.rmSync(path.join(world.project, '.zshenv'));
        }
      },
    );

    it('a repository whose .git/config runs a program (core.fsmonitor on git status)', async () => {
      repoWithNotes();
      const attack = plantAttack();
      git(world.project, 'config', 'core.fsmonitor', attack);
      try {
        const r = await runReadOnly('git status');
        expectContained(r.output);
      } finally {
        git(world.project, 'config', '--unset', 'core.fsmonitor');
      }
    });

    it('core.pager, in a terminal as run_command runs it (the pager runs only on a tty)', async () => {
      repoWithNotes();
      const attack = plantAttack();
      git(world.project, 'config', 'core.pager', attack);
      try {
        const r = await runInPty(
          'git log',
          20_000,
          { wrapper: sandbox, defaultTimeoutMs: 20_000, killGraceMs: 500 },
          {
            projectRoot: world.project,
            additionalDirectories: [],
            signal: new AbortController().signal,
            maxOutputChars: 30_000,
            sandbox: 'read-only',
          },
        );
        expectContained(r.content);
      } finally {
        git(world.project, 'config', '--unset', 'core.pager');
      }
    });

    it('its /tmp is its own: nothing it leaves there reaches a later command of either profile', async () => {
      const first = await runReadOnly('echo x > /tmp/left-behind && ls /tmp');
      expect(first.output).toContain('left-behind');
      expect((await runReadOnly('ls -A /tmp')).output.trim()).toBe('');
      const later = await runWrapped(await sandbox.wrap('ls -A /tmp; test ! -e /tmp/planted-by-read-only'));
      expect(later.output).not.toContain('left-behind');
      expect(later.exitCode).toBe(0);
    });

    it('the probe tells the profiles apart: it fails where the project is writable', async () => {
      const probe = readOnlyProbeCommand(readOnlySeccompProgram() !== null);
      const ro = await runReadOnly(probe);
      expect(ro).toEqual({ exitCode: 0, output: 'gatehouse-sandbox-ok\n' });
      const ws = await runWrapped(await sandbox.wrap(probe));
      expect(ws.exitCode).not.toBe(0);
      expect(ws.output).toContain('the read-only profile left the project writable');
    });

    it('a write or a connection is explained to the model as the read-only sandbox', async () => {
      const r = await runReadOnly(`touch made.txt; touch ${shQuote(path.join(world.project, 'abs.txt'))}`);
      const violation = sandbox.describeViolation(r.output, r.exitCode, 'read-only') ?? '';
      expect(violation).toContain(
        `write to ${path.join(world.project, 'abs.txt')}: the command ran in the read-only sandbox`,
      );
      const net = await runReadOnly(
        curlPath
          ? `${curlPath} -sS -m 5 http://example.com/`
          : 'getent hosts example.com || echo "Could not resolve host: example.com"; exit 6',
      );
      expect(sandbox.describeViolation(net.output, net.exitCode, 'read-only')).toMatch(
        /^blocked by sandbox: network access: the command ran in the read-only sandbox/,
      );
    });

    it.skipIf(process.getuid?.() !== 0 || !fs.existsSync('/usr/bin/setpriv'))(
      'run by an unprivileged user, a setuid binary and su do not elevate (no_new_privs)',
      async () => {
        repoWithNotes();
        // A setuid-root copy of id: outside the sandbox it reports the effective uid 0, so the test can fail.
        const suid = path.join(world.outside, 'suid-id');
        fs.copyFileSync('/usr/bin/id', suid);
        fs.chmodSync(suid, 0o4755);
        for (const d of [world.root, world.home, world.project, world.outside]) fs.chmodSync(d, 0o755);
        fs.chmodSync(path.join(world.project, 'notes.txt'), 0o644);
        const asNobody = ['--reuid=65534', '--regid=65534', '--clear-groups', '--'];
        expect(execFileSync('/usr/bin/setpriv', [...asNobody, suid, '-u'], { encoding: 'utf8' }).trim()).toBe('0');
        const w: WrappedCommand = await sandbox.wrapReadOnly(
          `${shQuote(suid)} -u; su -c 'echo SU-RAN' root </dev/null; grep -E '^(NoNewPrivs|CapEff):' /proc/self/status; touch notes.txt && echo WROTE`,
        );
        const { output } = await runClosed({ ...w, file: '/usr/bin/setpriv', args: [...asNobody, w.file, ...w.args] });
        expect(output).toMatch(/^65534$/m);
        expect(output).not.toMatch(/^0$/m);
        expect(output).not.toContain('SU-RAN');
        expect(output).not.toContain('WROTE');
        expect(output).toMatch(/NoNewPrivs:\s+1/);
        expect(output).toMatch(/CapEff:\s+0{16}/);
      },
    );
  },
);
