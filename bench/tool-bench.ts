import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPermissionEngine } from '../src/main/core/permission/create-engine';
import { fixedTrust } from '../src/main/core/permission/trust-oracle';
import { createNodeWorkerHost } from '../src/main/services/worker-host/node-worker-host';
import { round } from './stats';

/** Must match BENCH_FILE in src/worker/bench-service.ts (the worker reads it; main only creates it). */
const BENCH_FILE = 'bench-small.txt';

/**
 * `command_render_*`: what rendering a command's output in the worker's headless terminal costs (bench-service.ts).
 *
 * `tool_roundtrip_overhead_p50_us`: one read_file call through request -> decision -> execution -> result, model
 * excluded. The real worker asks this process `permission.request`; a real PermissionEngine (project trusted, no
 * audit log) decides; on allow the worker's tool registry reads a small file. Timed in the worker per call.
 */
export async function benchToolRoundtrip(configDir: string): Promise<Record<string, number>> {
  const projectRoot = fs.realpathSync.native(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-bench-project-')));
  fs.writeFileSync(path.join(projectRoot, BENCH_FILE), 'line one\nline two\nline three\n');
  const host = createNodeWorkerHost({ configDir });
  try {
    const engine = await createPermissionEngine({
      projectRoot,
      configDir,
      env: { HOME: configDir },
      trust: fixedTrust(true),
      audit: null,
    });
    host.handle('permission.request', (request) =>
      engine.decide({ tool: request.tool, input: request.input }, { agentMode: 'do' }),
    );
    await host.start();
    await host.request('bench.toolRoundtrip', { projectRoot, count: 200 }, { timeoutMs: 60_000 });
    const r = await host.request('bench.toolRoundtrip', { projectRoot, count: 2000 }, { timeoutMs: 120_000 });
    await host.request('bench.commandOutput', { count: 20 }, { timeoutMs: 120_000 });
    const out = await host.request('bench.commandOutput', { count: 200 }, { timeoutMs: 120_000 });
    return {
      tool_roundtrip_overhead_p50_us: round(r.p50_us),
      command_render_small_p50_us: round(out.small_p50_us),
      command_render_spinner_ms: round(out.spinner_ms),
      command_render_10mb_lines_ms: round(out.lines_10mb_ms),
    };
  } finally {
    await host.stop();
    fs.rmSync(projectRoot, { recursive: true, force: true });
  }
}
