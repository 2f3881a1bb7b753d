import { BaseSequencer } from 'vitest/node';
import type { TestSpecification } from 'vitest/node';

/**
 * The files that take longest (measured with the JSON reporter on the full suite: the permission corpus spawns about
 * 180 CLI processes; the sandboxed agent runs and the CLI runs spawn the CLI, the worker and bubblewrap; the Chromium
 * chat tests, axe on every view), longest first. Vitest orders by the durations it cached from the last run, and by file size where it
 * has none (a fresh clone, CI): these small files would then start last, and the suite would wait on one of them
 * while the other worker sits idle. They start first; everything else keeps Vitest's order.
 */
const SLOW_FIRST = [
  'test/integration/permission-corpus.test.ts',
  'test/integration/agent-sandbox.test.ts',
  'test/integration/agent-sandbox-unsandboxed.test.ts',
  'test/e2e/layout.e2e.test.ts',
  'test/e2e/chat-render.e2e.test.ts',
  'test/integration/settings-integrity.test.ts',
  'test/integration/cli-run.test.ts',
  'test/e2e/chat.e2e.test.ts',
  'test/integration/cli-integrity.test.ts',
  'test/e2e/rules.e2e.test.ts',
];

function rank(spec: TestSpecification): number {
  const id = spec.moduleId.replace(/\\/g, '/');
  const at = SLOW_FIRST.findIndex((file) => id.endsWith(`/${file}`));
  return at === -1 ? SLOW_FIRST.length : at;
}

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    return base
      .map((spec, order) => ({ spec, order, rank: rank(spec) }))
      .sort((a, b) => a.rank - b.rank || a.order - b.order)
      .map((x) => x.spec);
  }
}
