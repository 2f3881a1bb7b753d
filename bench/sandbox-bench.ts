import { toRpcError } from '../src/shared/errors';
import { createNodeWorkerHost } from '../src/main/services/worker-host/node-worker-host';
import { round } from './stats';

/**
 * `sandbox_overhead_p50_ms` (the workspace profile) and `sandbox_read_only_overhead_p50_ms` (the read-only profile):
 * a trivial command run in the worker's bubblewrap sandbox minus the same command run directly, the sandbox already
 * set up (measured in the real worker). No sandbox here: the metrics are omitted and the reason goes to stderr.
 */
export async function benchSandbox(configDir: string): Promise<Record<string, number>> {
  const host = createNodeWorkerHost({ configDir });
  await host.start();
  try {
    const r = await host.request('bench.sandboxOverhead', { runs: 30 }, { timeoutMs: 120_000 });
    return {
      sandbox_overhead_p50_ms: round(r.sandboxed_p50_ms - r.direct_p50_ms),
      sandbox_read_only_overhead_p50_ms: round(r.read_only_p50_ms - r.direct_p50_ms),
    };
  } catch (err) {
    process.stderr.write(`bench: sandbox_overhead_p50_ms skipped: ${toRpcError(err).message}\n`);
    return {};
  } finally {
    await host.stop();
  }
}
