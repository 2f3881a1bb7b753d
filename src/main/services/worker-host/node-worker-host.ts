import { openLog } from '../../core/log/logger';
import { NodeWorkerLauncher, workerOutputSink } from './node-launcher';
import { WorkerSupervisor } from './supervisor';
import type { SupervisorOptions } from './supervisor';
import { buildWorkerEnv } from './worker-env';
import { workerEntryPath } from './worker-entry';
import { workerTrustEnv } from '../../core/network/worker-trust-env';

/**
 * The worker as a Node child process: for the CLI, the browser shell and tests. Its output goes to
 * `<configDir>/logs/worker.log` (and stderr), its starts, crashes and restarts to `<configDir>/logs/main.log`.
 */
export function createNodeWorkerHost(options: {
  configDir: string;
  entry?: string;
  env?: NodeJS.ProcessEnv;
  tuning?: Partial<Omit<SupervisorOptions, 'launcher' | 'entry' | 'env'>>;
}): WorkerSupervisor {
  const env = options.env ?? process.env;
  return new WorkerSupervisor({
    launcher: new NodeWorkerLauncher(workerOutputSink(openLog(options.configDir, 'worker'))),
    log: openLog(options.configDir, 'main'),
    entry: options.entry ?? workerEntryPath(),
    env: buildWorkerEnv(env, { GATEHOUSE_HOME: options.configDir }),
    // The CA files of the person's settings and the policy, read again at each (re)start.
    envExtras: () => workerTrustEnv({ configDir: options.configDir, env }),
    ...options.tuning,
  });
}
