import type { WorkerStatus } from '../../../shared/api';
import type { MainMethod, WorkerMethod, WorkerParams, WorkerResult } from '../../../shared/worker-protocol';
import type { MainMethodHandler, WorkerEventListener, WorkerHost } from '../../core/worker-host-types';

/**
 * The worker as the app core sees it, started only once the login shell's PATH is known (`pathReady` settles when it
 * is in main's environment and the worker's, or when asking for it failed). Everything that needs that PATH comes
 * after a start: the agent's commands and the MCP servers (the worker spawns both with its environment), and the
 * hooks main spawns with its own environment (a session's hooks run only once its worker has started). A message
 * sent while the login shell is still being asked waits for it rather than starting the worker without it.
 */
export class WorkerAfterPath implements WorkerHost {
  private pathKnown = false;

  constructor(
    private readonly worker: WorkerHost,
    private readonly pathReady: Promise<void>,
    private readonly log: (line: string) => void,
  ) {
    void pathReady.finally(() => (this.pathKnown = true));
  }

  async start(): Promise<void> {
    // Said in main.log: a first message can wait up to the login shell's time limit here.
    if (!this.pathKnown) this.log("the worker waits for the login shell's PATH before it starts");
    await this.pathReady;
    return this.worker.start();
  }

  stop(): Promise<void> {
    return this.worker.stop();
  }

  request<M extends WorkerMethod>(
    method: M,
    params: WorkerParams<M>,
    options?: { timeoutMs?: number },
  ): Promise<WorkerResult<M>> {
    return this.worker.request(method, params, options);
  }

  status(): WorkerStatus {
    return this.worker.status();
  }

  onStatus(listener: (status: WorkerStatus) => void): () => void {
    return this.worker.onStatus(listener);
  }

  handle<M extends MainMethod>(method: M, handler: MainMethodHandler<M>): void {
    this.worker.handle(method, handler);
  }

  onEvent(listener: WorkerEventListener): () => void {
    return this.worker.onEvent(listener);
  }
}
