import type { WorkerStatus } from '../../../shared/api';
import { GatehouseError, fromRpcError, toRpcError } from '../../../shared/errors';
import { parseAtBoundary } from '../../../shared/validate';
import type { MainMethod, WorkerInfo, WorkerMethod, WorkerParams, WorkerResult } from '../../../shared/worker-protocol';
import {
  MainMethods,
  PortMessageSchema,
  WORKER_PROTOCOL_VERSION,
  WorkerMethods,
} from '../../../shared/worker-protocol';
import type { z } from 'zod';
import type { Logger } from '../../core/log/logger';
import { PendingRequests } from './pending-requests';
import type {
  MainMethodHandler,
  WorkerChannel,
  WorkerEventListener,
  WorkerHost,
  WorkerLauncher,
} from '../../core/worker-host-types';

export interface SupervisorOptions {
  launcher: WorkerLauncher;
  entry: string;
  env: Record<string, string>;
  /**
   * Added to `env` at each (re)start, read just before it: what the settings say the worker trusts (network.caFile,
   * src/main/core/network/worker-trust-env.ts). Must not reject.
   */
  envExtras?: () => Promise<Record<string, string>>;
  handshakeTimeoutMs?: number;
  heartbeatMs?: number;
  /** Missed heartbeats before the worker is judged hung and killed. */
  heartbeatMisses?: number;
  requestTimeoutMs?: number;
  /** Crashes within `crashWindowMs` after which the supervisor stops restarting and says so. */
  maxCrashes?: number;
  crashWindowMs?: number;
  backoffBaseMs?: number;
  /** Where starts, crashes, restarts and hangs are recorded (main.log); none when absent. */
  log?: Logger;
}

type IncomingHandler = (params: unknown, signal: AbortSignal) => Promise<unknown>;

/**
 * Runs the worker and keeps it alive: start-up handshake, heartbeat, request/response correlation in both
 * directions, restart with backoff after a crash, and a plain "failed" state after repeated crashes.
 */
export class WorkerSupervisor implements WorkerHost {
  private channel: WorkerChannel | null = null;
  private state: WorkerStatus['state'] = 'stopped';
  private message: string | null = null;
  private info: WorkerInfo | null = null;
  private restarts = 0;
  private crashes: number[] = [];
  private readonly pending = new PendingRequests();
  private readonly incoming = new Map<number, AbortController>();
  private readonly handlers = new Map<string, IncomingHandler>();
  private readonly statusListeners = new Set<(s: WorkerStatus) => void>();
  private readonly eventListeners = new Set<WorkerEventListener>();
  private ready: Promise<void> | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private restartTimer: NodeJS.Timeout | null = null;
  private lastPong = 0;
  private pingSeq = 0;
  private readonly o: Required<Omit<SupervisorOptions, 'log' | 'envExtras'>>;
  private readonly envExtras: SupervisorOptions['envExtras'];
  /** Counts launches that read `envExtras` first: only the latest may start a worker. */
  private launches = 0;
  private readonly log: Logger | null;

  constructor(options: SupervisorOptions) {
    this.o = {
      handshakeTimeoutMs: 10_000,
      heartbeatMs: 2_000,
      heartbeatMisses: 3,
      requestTimeoutMs: 120_000,
      maxCrashes: 5,
      crashWindowMs: 60_000,
      backoffBaseMs: 200,
      ...options,
    };
    this.log = options.log ?? null;
    this.envExtras = options.envExtras;
  }

  status(): WorkerStatus {
    return { state: this.state, message: this.message, restarts: this.restarts, info: this.info };
  }

  onStatus(listener: (s: WorkerStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /** Port events from the worker (e.g. agent events); validated by the listener. */
  onEvent(listener: WorkerEventListener): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  handle<M extends MainMethod>(method: M, handler: MainMethodHandler<M>): void {
    this.handlers.set(method, (params, signal) =>
      handler(
        parseAtBoundary(MainMethods[method].params, params, method) as Parameters<MainMethodHandler<M>>[0],
        signal,
      ),
    );
  }

  start(): Promise<void> {
    if (this.state === 'ready') return Promise.resolve();
    if (this.ready && (this.state === 'starting' || this.state === 'restarting')) return this.ready;
    this.crashes = [];
    return this.launch('starting');
  }

  async stop(): Promise<void> {
    this.setState('stopped', null);
    this.clearTimers();
    const ch = this.channel;
    this.channel = null;
    this.pending.failAll(
      (m) => new GatehouseError('WORKER_UNAVAILABLE', `the worker was stopped while handling "${m}"`),
    );
    this.abortIncoming();
    if (ch) {
      let timer: NodeJS.Timeout | undefined;
      const exited = new Promise<void>((r) => ch.onExit(() => r()));
      ch.kill();
      await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 2_000)))]);
      clearTimeout(timer);
    }
  }

  async request<M extends WorkerMethod>(
    method: M,
    params: WorkerParams<M>,
    options?: { timeoutMs?: number },
  ): Promise<WorkerResult<M>> {
    const valid = parseAtBoundary(WorkerMethods[method].params, params, method);
    if (this.state === 'failed' || this.state === 'stopped') {
      throw new GatehouseError('WORKER_UNAVAILABLE', this.message ?? 'the worker is not running');
    }
    if (this.state !== 'ready' && this.ready) await this.ready;
    const ch = this.channel;
    if (!ch || this.state !== 'ready')
      throw new GatehouseError('WORKER_UNAVAILABLE', this.message ?? 'the worker is not running');
    const { id, promise } = this.pending.open(method, options?.timeoutMs ?? this.o.requestTimeoutMs);
    ch.send({ kind: 'request', id, method, params: valid });
    const result = await promise;
    const schema: z.ZodType = WorkerMethods[method].result;
    return parseAtBoundary(schema, result, `${method} (worker reply)`) as WorkerResult<M>;
  }

  private launch(state: 'starting' | 'restarting'): Promise<void> {
    this.setState(state, state === 'restarting' ? this.message : null);
    this.info = null;
    const extras = this.envExtras;
    if (!extras) return this.spawn(state, this.o.env);
    const launch = ++this.launches;
    this.ready = extras().then((extra) => {
      // Stopped (or stopped and started again) while the settings were read: this launch starts nothing.
      if (this.state !== state || launch !== this.launches)
        throw new GatehouseError('WORKER_UNAVAILABLE', this.message ?? 'the worker was stopped');
      return this.spawn(state, { ...this.o.env, ...extra });
    });
    this.ready.catch(() => undefined);
    return this.ready;
  }

  private spawn(state: 'starting' | 'restarting', env: Record<string, string>): Promise<void> {
    const ch = this.o.launcher.launch(this.o.entry, env);
    this.channel = ch;
    this.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (this.channel !== ch || this.state === 'ready') return;
        this.message = `the worker did not start within ${Math.round(this.o.handshakeTimeoutMs / 1000)} s`;
        this.log?.error(`${this.message} (pid ${ch.pid ?? '?'})`);
        reject(new GatehouseError('TIMEOUT', this.message));
        ch.kill(true);
      }, this.o.handshakeTimeoutMs);
      ch.onMessage((raw) => {
        if (this.channel !== ch) return;
        const parsed = PortMessageSchema.safeParse(raw);
        if (!parsed.success) return; // not half-processed: malformed port traffic is dropped
        const msg = parsed.data;
        if (msg.kind === 'hello') {
          if (msg.info.protocol !== WORKER_PROTOCOL_VERSION) {
            this.message = `the worker speaks protocol ${msg.info.protocol}, main speaks ${WORKER_PROTOCOL_VERSION}`;
            this.log?.error(this.message);
            clearTimeout(timer);
            reject(new GatehouseError('INTERNAL', this.message));
            ch.kill();
            return;
          }
          clearTimeout(timer);
          this.info = msg.info;
          this.log?.info(
            `worker ${state === 'restarting' ? 'restarted' : 'started'}: pid ${msg.info.pid}, ${msg.info.runtime} ${msg.info.nodeVersion}, version ${msg.info.version}`,
          );
          this.setState('ready', null);
          this.startHeartbeat(ch);
          resolve();
          return;
        }
        this.receive(ch, msg);
      });
      ch.onExit((code, signal) => {
        clearTimeout(timer);
        if (this.channel !== ch) return;
        this.channel = null;
        const how = signal ? `signal ${signal}` : `exit code ${code}`;
        if (this.state === 'stopped') return;
        if (this.state !== 'ready')
          reject(new GatehouseError('WORKER_CRASHED', this.message ?? `the worker exited during start-up (${how})`));
        this.onCrash(how);
      });
    });
    // A failed start is reported to the caller of start(); restarts report through status.
    this.ready.catch(() => undefined);
    return this.ready;
  }

  private receive(ch: WorkerChannel, msg: z.infer<typeof PortMessageSchema>): void {
    switch (msg.kind) {
      case 'pong':
        this.lastPong = Date.now();
        return;
      case 'response':
        this.pending.settle(
          msg.id,
          msg.ok ? { ok: true, result: msg.result } : { ok: false, error: fromRpcError(msg.error) },
        );
        return;
      case 'request':
        void this.serveIncoming(ch, msg.id, msg.method, msg.params);
        return;
      case 'event':
        for (const listener of this.eventListeners) {
          try {
            listener(msg.event, msg.data);
          } catch {
            // A failing listener must not break the port.
          }
        }
        return;
      default:
        return;
    }
  }

  private async serveIncoming(ch: WorkerChannel, id: number, method: string, params: unknown): Promise<void> {
    const handler = this.handlers.get(method);
    const abort = new AbortController();
    this.incoming.set(id, abort);
    try {
      if (!handler) throw new GatehouseError('UNKNOWN_METHOD', `main has no method "${method.slice(0, 100)}"`);
      const result = await handler(params, abort.signal);
      if (this.channel === ch) ch.send({ kind: 'response', id, ok: true, result });
    } catch (err) {
      if (this.channel === ch) ch.send({ kind: 'response', id, ok: false, error: toRpcError(err) });
    } finally {
      this.incoming.delete(id);
    }
  }

  private onCrash(how: string): void {
    this.clearTimers();
    this.pending.failAll(
      (m) =>
        new GatehouseError('WORKER_CRASHED', `the worker exited (${how}) while handling "${m}", which was stopped`),
    );
    // Any permission request still waiting for an answer counts as denied: its handler is told to give up.
    this.abortIncoming();
    const now = Date.now();
    this.crashes = [...this.crashes.filter((t) => now - t < this.o.crashWindowMs), now];
    if (this.crashes.length > this.o.maxCrashes) {
      this.setState(
        'failed',
        `The worker crashed ${this.crashes.length} times in ${Math.round(this.o.crashWindowMs / 1000)} s (last: ${how}). ` +
          'Gatehouse stopped restarting it; restart the app to try again.',
      );
      this.log?.error(this.message ?? 'the worker failed');
      return;
    }
    const delay = this.o.backoffBaseMs * 2 ** (this.crashes.length - 1);
    this.restarts++;
    const before = this.message;
    this.message = `the worker exited (${how}); restarting in ${delay} ms`;
    this.log?.warn(before === null ? this.message : `${this.message} (${before})`);
    this.setState('restarting', this.message);
    this.ready = new Promise<void>((resolve, reject) => {
      this.restartTimer = setTimeout(() => {
        this.restartTimer = null;
        if (this.state !== 'restarting')
          return reject(new GatehouseError('WORKER_UNAVAILABLE', this.message ?? 'stopped'));
        this.launch('restarting').then(resolve, reject);
      }, delay);
    });
    this.ready.catch(() => undefined);
  }

  private startHeartbeat(ch: WorkerChannel): void {
    this.lastPong = Date.now();
    this.heartbeat = setInterval(() => {
      if (this.channel !== ch) return;
      if (Date.now() - this.lastPong > this.o.heartbeatMs * this.o.heartbeatMisses) {
        this.message = `the worker stopped answering heartbeats for ${this.o.heartbeatMs * this.o.heartbeatMisses} ms`;
        ch.kill(true); // the exit handler restarts it
        return;
      }
      ch.send({ kind: 'ping', seq: ++this.pingSeq });
    }, this.o.heartbeatMs);
    this.heartbeat.unref();
  }

  private abortIncoming(): void {
    for (const a of this.incoming.values()) a.abort();
    this.incoming.clear();
  }

  private clearTimers(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
  }

  private setState(state: WorkerStatus['state'], message: string | null): void {
    this.state = state;
    this.message = message;
    const s = this.status();
    for (const l of this.statusListeners) l(s);
  }
}
