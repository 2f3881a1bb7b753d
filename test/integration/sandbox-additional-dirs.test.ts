import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommandSandbox } from '../../src/sandbox/command-sandbox';
import { type CommandSandbox } from '../../src/sandbox/types';
import { makeWorld, noBwrapReason, runIn, type SandboxWorld } from '../unit/sandbox/support';

// Additional directories are writable like the project; the secrets' folders inside them stay hidden.

describe.skipIf(noBwrapReason !== null)(
  `sandboxed commands: additional directories (real bubblewrap${noBwrapReason ? `; skipped: ${noBwrapReason}` : ''})`,
  () => {
    let world: SandboxWorld;
    let sandbox: CommandSandbox;
    let linked: string;

    beforeAll(async () => {
      world = makeWorld();
      // The whole home as an additional directory: ~/.ssh, ~/.aws and our config dir are inside it.
      linked = path.join(world.root, 'lib-real');
      fs.mkdirSync(linked);
      fs.symlinkSync(linked, path.join(world.root, 'lib-link'));
      fs.mkdirSync(path.join(world.home, '.ssh', 'sub'), { recursive: true });
      const created = await createCommandSandbox(
        world.config({
          additionalDirectories: [world.home, path.join(world.root, 'lib-link'), path.join(world.root, 'missing')],
        }),
      );
      if (created.kind !== 'sandbox') throw new Error(`sandbox unavailable: ${created.reason}`);
      sandbox = created;
    });
    afterAll(async () => {
      await sandbox?.dispose();
      world?.remove();
    });

    it('writes in an additional directory (bound at its real path, a symlinked name works too)', async () => {
      const r = await runIn(
        sandbox,
        `echo home > ${world.home}/notes.txt && echo lib > ${world.root}/lib-link/a.txt && echo real > ${linked}/b.txt`,
      );
      expect(r.exitCode, r.output).toBe(0);
      expect(fs.readFileSync(path.join(world.home, 'notes.txt'), 'utf8')).toBe('home\n');
      expect(fs.readFileSync(path.join(linked, 'a.txt'), 'utf8')).toBe('lib\n');
      expect(fs.readFileSync(path.join(linked, 'b.txt'), 'utf8')).toBe('real\n');
      expect(r.violation).toBeNull();
    });

    it('a folder next to them stays read-only', async () => {
      const r = await runIn(sandbox, `echo x > ${world.outside}/escaped.txt`);
      expect(fs.existsSync(path.join(world.outside, 'escaped.txt'))).toBe(false);
      expect(r.violation).toBe(`blocked by sandbox: write outside the project: ${world.outside}/escaped.txt`);
    });

    it('secrets inside a writable additional directory stay hidden, for reads and writes', async () => {
      const r = await runIn(
        sandbox,
        'cat ~/.ssh/id_rsa; cat ~/.aws/credentials; ls -A ~/.ssh; cat ~/.config/gatehouse/trust.json; ' +
          'echo k >> ~/.ssh/authorized_keys; echo "sandbox: {enabled: false}" > ~/.config/gatehouse/settings.yaml; ' +
          'mv ~/.ssh ~/ssh-moved; rm -rf ~/.config/gatehouse; grep -r SECRET ~ 2>/dev/null; true',
      );
      expect(r.output).not.toContain('PRIVATE-KEY-MATERIAL');
      expect(r.output).not.toContain('AWSSECRET');
      expect(r.output).not.toContain('trusted');
      expect(fs.existsSync(path.join(world.home, '.ssh', 'authorized_keys'))).toBe(false);
      expect(fs.existsSync(path.join(world.userConfigDir, 'settings.yaml'))).toBe(false);
      expect(fs.readFileSync(path.join(world.home, '.ssh', 'id_rsa'), 'utf8')).toBe('PRIVATE-KEY-MATERIAL\n');
      expect(fs.existsSync(path.join(world.userConfigDir, 'trust.json'))).toBe(true);
      expect(fs.existsSync(path.join(world.home, 'ssh-moved'))).toBe(false);
      expect(r.violation).toContain('blocked by sandbox:');
      expect(r.violation).toContain('~/.ssh');
    });
  },
);
