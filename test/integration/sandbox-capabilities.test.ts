/**
 * No capabilities inside either profile (real bubblewrap). bubblewrap run by root keeps root's capabilities unless
 * told otherwise, and with CAP_SYS_ADMIN a command can unmount the tmpfs that hides ~/.ssh and read the key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommandSandbox } from '../../src/sandbox/command-sandbox';
import { type CommandSandbox } from '../../src/sandbox/types';
import { makeWorld, noBwrapReason, runWrapped, type SandboxWorld } from '../unit/sandbox/support';

describe.skipIf(noBwrapReason !== null)(
  `capabilities in the sandbox (real bubblewrap${noBwrapReason ? `; skipped: ${noBwrapReason}` : ''})`,
  () => {
    let world: SandboxWorld;
    let sandbox: CommandSandbox;

    beforeAll(async () => {
      world = makeWorld();
      const created = await createCommandSandbox(world.config());
      if (created.kind !== 'sandbox') throw new Error(`sandbox unavailable: ${created.reason}`);
      sandbox = created;
    });
    afterAll(async () => {
      await sandbox?.dispose();
      world?.remove();
    });

    const attempt = (ssh: string): string =>
      [
        "grep -E '^(CapEff|CapPrm|CapBnd|NoNewPrivs):' /proc/self/status",
        `umount ${ssh} 2>/dev/null && echo UNMOUNTED`,
        'mount -o remount,rw / 2>/dev/null && echo REMOUNTED',
        `cat ${ssh}/id_rsa 2>/dev/null`,
        'exit 0',
      ].join('\n');

    for (const profile of ['workspace', 'read-only'] as const) {
      it(`${profile}: none, even for root; a mask cannot be unmounted and the key stays hidden`, async () => {
        const command = attempt(`${world.home}/.ssh`);
        const r = await runWrapped(
          await (profile === 'read-only' ? sandbox.wrapReadOnly(command) : sandbox.wrap(command)),
        );
        expect(r.output).toMatch(/^CapPrm:\s+0{16}$/m);
        expect(r.output).toMatch(/^CapEff:\s+0{16}$/m);
        expect(r.output).toMatch(/^CapBnd:\s+0{16}$/m);
        expect(r.output).toMatch(/^NoNewPrivs:\s+1$/m);
        expect(r.output).not.toContain('UNMOUNTED');
        expect(r.output).not.toContain('REMOUNTED');
        expect(r.output).not.toContain('PRIVATE-KEY-MATERIAL');
      });
    }
  },
);
