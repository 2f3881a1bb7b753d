import type { WorkerStatus } from '../../shared/api';
import type {
  MainMethod,
  MainParams,
  MainResult,
  PortMessage,
  WorkerMethod,
  WorkerParams,
  WorkerResult,
} from '../../shared/worker-protocol';

/** One running worker process, whatever launched it (Electron utilityProcess or Node child_process). */
export interface WorkerChannel {
  readonly pid: number | undefined;
  send(message: PortMessage): void;
  onMessage(listener: (message: unknown) => void): void;
  /** Called once when the process is gone, whatever the reason. */
  onExit(listener: (code: number | null, signal: string | null) => void): void;
  /**
   * Ends the process. By default politely: SIGTERM, on which the worker removes what outlives it (its sandboxes'
   * temp folders, their proxies) and exits, then SIGKILL after a grace period if it is still there. `force` (a worker
   * that stopped answering, whose signal handler cannot run either): SIGKILL at once.
   */
  kill(force?: boolean): void;
}

/** Starts the worker bundle with a given environment (built from scratch by the host, never inherited). */
export interface WorkerLauncher {
  readonly runtime: 'node' | 'electron';
  launch(entry: string, env: Record<string, string>): WorkerChannel;
}

/** `signal` aborts when the worker dies: a pending permission request then counts as denied. */
export type MainMethodHandler<M extends MainMethod> = (
  params: MainParams<M>,
  signal: AbortSignal,
) => Promise<MainResult<M>>;

/** A port event from the worker: `event` names it, `data` is unvalidated until the listener parses it. */
export type WorkerEventListener = (event: string, data: unknown) => void;

/** The supervised worker as the rest of main sees it. */
export interface WorkerHost {
  start(): Promise<void>;
  stop(): Promise<void>;
  request<M extends WorkerMethod>(
    method: M,
    params: WorkerParams<M>,
    options?: { timeoutMs?: number },
  ): Promise<WorkerResult<M>>;
  status(): WorkerStatus;
  onStatus(listener: (status: WorkerStatus) => void): () => void;
  /** Handles requests the worker makes of main (permission requests). */
  handle<M extends MainMethod>(method: M, handler: MainMethodHandler<M>): void;
  /** Port events the worker sends (agent events while a run goes). Returns the unsubscribe. */
  onEvent(listener: WorkerEventListener): () => void;
}
