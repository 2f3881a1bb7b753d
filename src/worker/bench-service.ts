import type { Decision } from '../shared/permission';
import type { PermissionRequest, WorkerParams, WorkerResult } from '../shared/worker-protocol';
import { createToolRegistry } from './tools';

/** The file `bench.toolRoundtrip` reads, relative to the project root (main's bench creates it). */
export const BENCH_FILE = 'bench-small.txt';

function p50(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(sorted.length / 2) - 1)] ?? NaN;
}

/**
 * `tool_roundtrip_overhead_p50_us`: one read_file call through the real path, model excluded: the permission
 * request to main, main's decision, the registry's execution gate and the read, the result. Every call must be
 * allowed and succeed, else the benchmark measured something else and fails.
 */
export async function measureToolRoundtrip(
  params: WorkerParams<'bench.toolRoundtrip'>,
  requestPermission: (request: PermissionRequest) => Promise<Decision>,
): Promise<WorkerResult<'bench.toolRoundtrip'>> {
  const registry = createToolRegistry({ ripgrepPath: null });
  const ctx = { projectRoot: params.projectRoot, additionalDirectories: [], signal: new AbortController().signal };
  const input = { path: BENCH_FILE };
  const samples: number[] = [];
  for (let i = 0; i < params.count; i++) {
    const start = process.hrtime.bigint();
    const decision = await requestPermission({ tool: 'read_file', input, callId: `bench-${i}` });
    if (decision.decision !== 'allow')
      throw new Error(`bench: read_file was not allowed (${decision.decision}: ${decision.reason})`);
    const result = await registry.execute('read_file', input, ctx, { agentMode: 'do' });
    if (result.isError) throw new Error(`bench: read_file failed: ${result.content}`);
    samples.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  return { p50_us: p50(samples), samples: samples.length };
}
