import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommandSandbox } from '../../src/sandbox/command-sandbox';
import { type CommandSandbox } from '../../src/sandbox/types';
import { makeWorld, noBwrapReason, runIn, type SandboxWorld } from '../unit/sandbox/support';

describe.skipIf(noBwrapReason !== null)(
  `sandboxed commands: files and environment (real bubblewrap${noBwrapReason ? `; skipped: ${noBwrapReason}` : ''})`,
  () => {
    let world: SandboxWorld;
    let sandbox: CommandSandbox;
    let extraDir: string;

    beforeAll(async () => {
      world = makeWorld();
      extraDir = path.join(world.root, 'extra');
      fs.mkdirSync(extraDir);
      const created = await createCommandSandbox(world.config({ additionalDirectories: [extraDir] }));
      if (created.kind !== 'sandbox') throw new Error(`sandbox unavailable: ${created.reason}`);
      sandbox = created;
    });
    afterAll(async () => {
      await sandbox?.dispose();
      world?.remove();
    });

    it('writes inside the project and its additional directories', async () => {
      const r = await runIn(
        sandbox,
        `echo made > inside.txt && mkdir -p deep/er && echo x > deep/er/f && echo y > ${extraDir}/e.txt && cat inside.txt`,
      );
      expect(r.exitCode).toBe(0);
      expect(r.output).toContain('made');
      expect(fs.readFileSync(path.join(world.project, 'inside.txt'), 'utf8')).toBe('made\n');
      expect(fs.readFileSync(path.join(extraDir, 'e.txt'), 'utf8')).toBe('y\n');
      expect(r.violation).toBeNull();
    });

    it('refuses a write outside the project, and says so', async () => {
      const target = path.join(world.outside, 'escaped.txt');
      const r = await runIn(sandbox, `echo pwned > ${target}`);
      expect(r.exitCode).not.toBe(0);
      expect(fs.existsSync(target)).toBe(false);
      expect(r.violation).toBe(`blocked by sandbox: write outside the project: ${target}`);
    });

    it('refuses writes through a symlink, a relative escape and another interpreter', async () => {
      fs.symlinkSync(world.outside, path.join(world.project, 'link-out'));
      const r = await runIn(
        sandbox,
        `echo a > link-out/via-link.txt; echo b > ../../outside/via-dots.txt; python3 -c "open('${world.outside}/via-py.txt','w')" ; ` +
          `node -e "require('fs').writeFileSync('${world.home}/.bashrc','x')"; exit 0`,
      );
      for (const f of ['via-link.txt', 'via-dots.txt', 'via-py.txt'])
        expect(fs.existsSync(path.join(world.outside, f))).toBe(false);
      expect(fs.existsSync(path.join(world.home, '.bashrc'))).toBe(false);
      expect(r.output).toMatch(/Read-only file system/);
      // exit code 0, yet the violation is still reported
      expect(r.violation).toContain('blocked by sandbox: write outside the project:');
    });

    it('hides ~/.ssh, ~/.aws and our own config dir even from reads', async () => {
      const r = await runIn(
        sandbox,
        'cat ~/.ssh/id_rsa; cat ~/.aws/credentials; ls -A ~/.ssh; cat ~/.config/gatehouse/trust.json; grep -r SECRET ~ 2>/dev/null; true',
      );
      expect(r.output).not.toContain('PRIVATE-KEY-MATERIAL');
      expect(r.output).not.toContain('AWSSECRET');
      expect(r.output).not.toContain('trusted');
      expect(r.violation).toContain('blocked by sandbox: read of a protected path: ~/.ssh/id_rsa');
      // the rest of the file system stays readable
      const ok = await runIn(sandbox, `cat ${world.outside}/readable.txt`);
      expect(ok.output).toContain('outside-content');
    });

    it('hides a secret folder reached through a symlink and one that is inside the project', async () => {
      fs.symlinkSync(path.join(world.home, '.ssh'), path.join(world.project, 'keys'));
      const r = await runIn(sandbox, 'cat keys/id_rsa; cat ./keys/../keys/id_rsa; true');
      expect(r.output).not.toContain('PRIVATE-KEY-MATERIAL');
    });

    it('cannot modify the secret folders either', async () => {
      const r = await runIn(sandbox, 'echo evil >> ~/.ssh/authorized_keys');
      expect(r.exitCode).not.toBe(0);
      expect(fs.existsSync(path.join(world.home, '.ssh', 'authorized_keys'))).toBe(false);
      expect(r.violation).toContain('blocked by sandbox: write to a protected path: ~/.ssh/authorized_keys');
    });

    it('masks a local socket at a protected path (agents, container engines)', async () => {
      const socketPath = path.join(world.home, '.netrc');
      const server = net.createServer((c) => c.end('socket-secret\n'));
      await new Promise<void>((resolve) => server.listen(socketPath, resolve));
      try {
        const r = await runIn(
          sandbox,
          `node -e "require('net').connect('${socketPath}').on('data', d => process.stdout.write(d)).on('error', e => console.log(e.code))"`,
        );
        expect(r.output).not.toContain('socket-secret');
        expect(r.output).toMatch(/ECONNREFUSED|ENOTSOCK|EACCES|ENOENT/);
      } finally {
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    });

    it('never passes the model key or tokens to the command', async () => {
      expect(process.env.ANTHROPIC_API_KEY ?? 'sk-ant-test-model-key').not.toBe('');
      const r = await runIn(sandbox, 'env; echo "key=[$ANTHROPIC_API_KEY]"');
      expect(r.output).toContain('key=[]');
      expect(r.output).not.toContain('sk-ant-test-model-key');
      expect(r.output).not.toContain('ghp_test');
      expect(r.output).toContain('GATEHOUSE_SANDBOX=1');
    });

    it('gives the command a private, writable /tmp that is not the host /tmp', async () => {
      const hostFile = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-sandbox-host-'));
      fs.writeFileSync(path.join(hostFile, 'host-secret.txt'), 'host-tmp-content');
      try {
        const r = await runIn(
          sandbox,
          `echo t > /tmp/scratch-${process.pid}.txt && cat /tmp/scratch-${process.pid}.txt && cat ${hostFile}/host-secret.txt; echo "tmpdir=$TMPDIR"`,
        );
        expect(r.output).toContain('tmpdir=/tmp');
        expect(r.output).not.toContain('host-tmp-content');
        expect(fs.existsSync(`/tmp/scratch-${process.pid}.txt`)).toBe(false);
        // the private /tmp lasts for the sandbox's life: later commands see earlier files
        const again = await runIn(sandbox, `cat /tmp/scratch-${process.pid}.txt`);
        expect(again.output.trim()).toBe('t');
      } finally {
        fs.rmSync(hostFile, { recursive: true, force: true });
      }
    });

    it('cannot see or signal host processes', async () => {
      const r = await runIn(sandbox, `kill -0 ${process.pid} && echo visible; ls /proc | grep -c '^[0-9]'`);
      expect(r.output).not.toContain('visible');
      expect(fs.existsSync(`/proc/${process.pid}`)).toBe(true);
    });
  },
);
