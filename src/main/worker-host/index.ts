import { NodeWorkerLauncher } from './node-launcher';
import { WorkerSupervisor } from './supervisor';
import type { SupervisorOptions } from './supervisor';
import { buildWorkerEnv } from './worker-env';
import { workerEntryPath } from './worker-entry';

export { WorkerSupervisor } from './supervisor';
export type { SupervisorOptions } from './supervisor';
export { NodeWorkerLauncher } from './node-launcher';
export { buildWorkerEnv } from './worker-env';
export { workerEntryPath } from './worker-entry';
export type { WorkerHost, WorkerLauncher, WorkerChannel, WorkerEventListener } from './types';

/** The worker as a Node child process: for the CLI, the browser shell and tests. */
export function createNodeWorkerHost(options: {
  configDir: string;
  entry?: string;
  env?: NodeJS.ProcessEnv;
  tuning?: Partial<Omit<SupervisorOptions, 'launcher' | 'entry' | 'env'>>;
}): WorkerSupervisor {
  return new WorkerSupervisor({
    launcher: new NodeWorkerLauncher(),
    entry: options.entry ?? workerEntryPath(),
    env: buildWorkerEnv(options.env ?? process.env, { GATEHOUSE_HOME: options.configDir }),
    ...options.tuning,
  });
}
