import * as fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createCommandSandbox } from '../../src/sandbox/command-sandbox';
import { measureSandboxOverhead } from '../../src/sandbox/overhead';
import { makeWorld, noBwrapReason, runWrapped } from '../unit/sandbox/support';

describe.skipIf(noBwrapReason !== null)(
  `sandbox lifecycle and overhead (real bubblewrap${noBwrapReason ? `; skipped: ${noBwrapReason}` : ''})`,
  () => {
    it('dispose removes the private /tmp and the proxy socket, and refuses later wraps', async () => {
      const world = makeWorld();
      try {
        const sandbox = await createCommandSandbox(world.config({ allowedDomains: ['example.com'] }));
        if (sandbox.kind !== 'sandbox') throw new Error(sandbox.reason);
        const w = await sandbox.wrap('echo hi');
        const privateTmp = w.args[w.args.indexOf('/tmp') - 1] ?? '';
        const socketDir = w.args[w.args.indexOf('/tmp/.gatehouse-net') - 1] ?? '';
        expect(fs.existsSync(privateTmp)).toBe(true);
        expect(fs.existsSync(`${socketDir}/proxy.sock`)).toBe(true);
        expect((await runWrapped(w)).output.trim()).toBe('hi');
        await sandbox.dispose();
        expect(fs.existsSync(privateTmp)).toBe(false);
        expect(fs.existsSync(socketDir)).toBe(false);
        await expect(sandbox.wrap('true')).rejects.toThrow(/disposed/);
        await sandbox.dispose(); // twice is harmless
      } finally {
        world.remove();
      }
    });

    it('measures the overhead of a trivial command', async () => {
      const m = await measureSandboxOverhead(5);
      expect(m.sandboxed_p50_ms).toBeGreaterThan(0);
      expect(m.read_only_p50_ms).toBeGreaterThan(0);
      expect(m.direct_p50_ms).toBeGreaterThan(0);
    });
  },
);
