import { describe, expect, it } from 'vitest';
import { benchMachine } from '../../../bench/machine-bench';

// `npm run bench -- --only machine`: the cost of a page fault and of a spawn's copy-on-write faults on this machine.
// Small sizes here (the numbers are the bench's business, never asserted): the probes run, count real faults and print
// both keys.
describe.skipIf(process.platform !== 'linux')('the machine bench (Linux)', () => {
  it('measures a page fault and the faults a spawn costs its parent, in child processes of their own', () => {
    const r = benchMachine({ faultMiB: 8, spawnMiB: 8, processes: 1 });
    expect(Object.keys(r).sort()).toEqual(['machine_page_fault_us', 'machine_spawn_rewrite_ms']);
    expect(r.machine_page_fault_us).toBeGreaterThan(0);
    expect(Number.isFinite(r.machine_spawn_rewrite_ms)).toBe(true);
  });
});
