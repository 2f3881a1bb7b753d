import { utilityProcess } from 'electron';
import type { WorkerChannel, WorkerLauncher } from '../worker-host/types';
import { channelFromUtilityProcess } from './utility-channel';

/**
 * Starts the worker bundle as an Electron utility process (a Node.js child with its own sandboxable process,
 * the desktop counterpart of the Node launcher). Must be used after the app's `ready` event.
 */
export class UtilityProcessLauncher implements WorkerLauncher {
  readonly runtime = 'electron' as const;

  launch(entry: string, env: Record<string, string>): WorkerChannel {
    const child = utilityProcess.fork(entry, [], {
      env,
      execArgv: [],
      serviceName: 'Gatehouse worker',
      stdio: 'pipe',
    });
    return channelFromUtilityProcess(child);
  }
}
