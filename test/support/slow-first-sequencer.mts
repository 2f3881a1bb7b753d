import { BaseSequencer } from 'vitest/node';
import type { TestSpecification } from 'vitest/node';

/**
 * The files that take longest (measured with the JSON reporter on the full suite, December 2026: the permission corpus
 * spawns about 360 CLI processes; the agent and CLI runs spawn the CLI, the worker and bubblewrap; the Chromium tests
 * open many pages), longest first: the 25 that took 40 s or more. Vitest orders by the durations it cached from the
 * last run, and by file size where it has none (a fresh clone, CI): these small files would then start last, and the
 * suite would wait on one of them while the other worker sits idle. They start first; everything else keeps Vitest's
 * order.
 */
const SLOW_FIRST = [
  'test/integration/permission-corpus.test.ts',
  'test/e2e/layout.e2e.test.ts',
  'test/integration/agent-checkpoints.test.ts',
  'test/integration/cli-run.test.ts',
  'test/integration/agent-mcp.test.ts',
  'test/e2e/chat-render.e2e.test.ts',
  'test/integration/cli-rpc.test.ts',
  'test/integration/decision-helper-robustness.test.ts',
  'test/integration/cli-mcp-test.test.ts',
  'test/integration/agent-subagents.test.ts',
  'test/integration/agent-search-filter.test.ts',
  'test/integration/agent-sandbox.test.ts',
  'test/integration/agent-integrity.test.ts',
  'test/e2e/ui-bench.e2e.test.ts',
  'test/e2e/chat.e2e.test.ts',
  'test/e2e/retry-switcher-dialogs.e2e.test.ts',
  'test/integration/agent-sandbox-additional-dirs.test.ts',
  'test/integration/cli-integrity.test.ts',
  'test/integration/settings-integrity.test.ts',
  'test/integration/decision-helper.test.ts',
  'test/integration/agent-tty-display.test.ts',
  'test/e2e/app.e2e.test.ts',
  'test/integration/agent-skills.test.ts',
  'test/integration/cli-auto-mode.test.ts',
  'test/e2e/display-approvals.e2e.test.ts',
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
