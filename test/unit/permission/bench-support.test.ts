import { describe, expect, it } from 'vitest';
import { createBenchEngine, measureStatPerCheckUs } from '../../../bench/support/permission-fixture';

describe('bench support', () => {
  it('builds engines with N rules across sources, whose decisions agree with a plain engine', async () => {
    // Speed is measured by `npm run bench` (permission_decision_p99_us), never asserted here.
    for (const n of [10, 1000]) {
      const bench = await createBenchEngine(n);
      try {
        const snap = await bench.engine.state.snapshot();
        expect(snap.rules.length).toBe(n);
        expect(new Set(snap.rules.map((r) => r.source))).toEqual(
          new Set(['policy', 'user', 'project', 'local', 'cli']),
        );
        const decide = async (): Promise<string[]> => {
          const out: string[] = [];
          for (const call of bench.calls) out.push((await bench.engine.decide(call)).decision);
          return out;
        };
        const decisions = await decide();
        expect(decisions.every((d) => d === 'allow' || d === 'ask' || d === 'deny')).toBe(true);
        expect(await decide()).toEqual(decisions);
        if (n === 1000) expect(await measureStatPerCheckUs(bench.engine, 20)).toBeGreaterThan(0);
      } finally {
        await bench.cleanup();
      }
    }
  }, 120_000);
});
