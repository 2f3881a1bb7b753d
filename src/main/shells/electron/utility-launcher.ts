import { utilityProcess } from 'electron';
import type { OutputSink } from '../../core/log/logger';
import type { WorkerChannel, WorkerLauncher } from '../../core/worker-host-types';
import { channelFromUtilityProcess } from './utility-channel';

/**
 * Starts the worker bundle as an Electron utility process (a Node.js child with its own sandboxable process,
 * the desktop counterpart of the Node launcher). Must be used after the app's `ready` event.
 */
export class UtilityProcessLauncher implements WorkerLauncher {
  readonly runtime = 'electron' as const;

  /** `output`: makes the sink of one launch's stdout and stderr (e.g. `workerOutputSink`); default: stderr. */
  constructor(private readonly output?: () => OutputSink) {}

  launch(entry: string, env: Record<string, string>): WorkerChannel {
    const child = utilityProcess.fork(entry, [], {
      env,
      execArgv: [],
      serviceName: 'Gatehouse worker',
      stdio: 'pipe',
    });
    if (!this.output) return channelFromUtilityProcess(child);
    const sink = this.output();
    const channel = channelFromUtilityProcess(child, { onOutput: (text) => sink.write(text) });
    channel.onExit(() => sink.end());
    return channel;
  }
}
