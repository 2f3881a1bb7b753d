import { describe, expect, it } from 'vitest';
import { GatehouseError } from '../../../src/shared/errors';
import { WORKER_PROTOCOL_VERSION, type PortMessage } from '../../../src/shared/worker-protocol';
import { WorkerSupervisor } from '../../../src/main/services/worker-host/supervisor';
import type { WorkerChannel, WorkerLauncher } from '../../../src/main/core/worker-host-types';

// The supervisor reads `envExtras` (the settings' CA files) before each launch: what it gives reaches the worker's
// environment, a restart reads it again, and a stop while it is read starts nothing.

/** A launcher whose workers say hello at once and can be made to crash. */
class FakeLauncher implements WorkerLauncher {
  readonly runtime = 'node' as const;
  readonly envs: Array<Record<string, string>> = [];
  private exits: Array<(code: number | null, signal: string | null) => void> = [];

  launch(_entry: string, env: Record<string, string>): WorkerChannel {
    this.envs.push(env);
    let listener: (message: unknown) => void = () => undefined;
    const pid = 1000 + this.envs.length;
    const hello = {
      kind: 'hello',
      info: {
        protocol: WORKER_PROTOCOL_VERSION,
        version: 'test',
        pid,
        runtime: 'node',
        nodeVersion: process.versions.node,
        startedAt: new Date(0).toISOString(),
        envNames: Object.keys(env),
      },
    };
    queueMicrotask(() => listener(hello));
    return {
      pid,
      send: (_message: PortMessage) => undefined,
      onMessage: (l) => void (listener = l),
      onExit: (l) => void this.exits.push(l),
      kill: () => this.crash(),
    };
  }

  crash(): void {
    for (const exit of this.exits.splice(0)) exit(null, 'SIGKILL');
  }
}

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('WorkerSupervisor envExtras', () => {
  it("adds what it gives to the worker's environment, read again at a restart", async () => {
    const launcher = new FakeLauncher();
    let reads = 0;
    const host = new WorkerSupervisor({
      launcher,
      entry: 'worker.js',
      env: { PATH: '/bin' },
      envExtras: async () => ({ GATEHOUSE_NETWORK_TRUST: `read ${++reads}` }),
      backoffBaseMs: 1,
    });
    await host.start();
    expect(launcher.envs).toEqual([{ PATH: '/bin', GATEHOUSE_NETWORK_TRUST: 'read 1' }]);
    launcher.crash();
    await expect.poll(() => host.status().state).toBe('ready');
    expect(launcher.envs[1]).toEqual({ PATH: '/bin', GATEHOUSE_NETWORK_TRUST: 'read 2' });
    await host.stop();
  });

  it('a stop while the extras are read starts no worker, and a start after it starts exactly one', async () => {
    const launcher = new FakeLauncher();
    const pending = [deferred<Record<string, string>>(), deferred<Record<string, string>>()];
    let call = 0;
    const host = new WorkerSupervisor({
      launcher,
      entry: 'worker.js',
      env: {},
      envExtras: () => pending[call++]!.promise,
    });
    const first = host.start();
    await host.stop();
    const second = host.start();
    pending[0]!.resolve({ WHICH: 'first' });
    pending[1]!.resolve({ WHICH: 'second' });
    await expect(first).rejects.toBeInstanceOf(GatehouseError);
    await second;
    expect(launcher.envs).toEqual([{ WHICH: 'second' }]);
    await host.stop();
  });
});
