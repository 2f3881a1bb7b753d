import { createNodeWorkerHost } from '../src/main/services/worker-host/node-worker-host';
import { percentile, round, usSince } from './stats';

/** Request/reply between the core and the real worker process. */
export async function benchIpc(configDir: string): Promise<Record<string, number>> {
  const spawnStart = process.hrtime.bigint();
  const host = createNodeWorkerHost({ configDir });
  await host.start();
  const coldStartMs = usSince(spawnStart) / 1000;
  try {
    for (let i = 0; i < 500; i++) await host.request('echo', { value: 'warm-up' });
    const samples: number[] = [];
    for (let i = 0; i < 5000; i++) {
      const t = process.hrtime.bigint();
      await host.request('echo', { value: 'ping' });
      samples.push(usSince(t));
    }
    return {
      ipc_roundtrip_p50_us: round(percentile(samples, 50)),
      ipc_roundtrip_p99_us: round(percentile(samples, 99)),
      worker_cold_start_ms: round(coldStartMs),
    };
  } finally {
    await host.stop();
  }
}
