import { toRpcError, GatehouseError } from '../shared/errors';
import { parseAtBoundary } from '../shared/validate';
import type {
  MainMethod,
  MainParams,
  MainResult,
  WorkerMethod,
  WorkerParams,
  WorkerResult,
} from '../shared/worker-protocol';
import { MainMethods, PortMessageSchema, WorkerMethods } from '../shared/worker-protocol';
import type { z } from 'zod';
import type { MainPort } from './port';

export type WorkerHandlers = {
  [M in WorkerMethod]: (params: WorkerParams<M>) => Promise<WorkerResult<M>>;
};

/**
 * The worker side of the port: answers main's requests (validated against the contract), answers heartbeats,
 * and lets the worker ask main (e.g. for a permission decision).
 */
export class WorkerRpc {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  constructor(
    private readonly port: MainPort,
    private readonly handlers: WorkerHandlers,
  ) {
    port.onMessage((raw) => this.receive(raw));
  }

  async callMain<M extends MainMethod>(method: M, params: MainParams<M>): Promise<MainResult<M>> {
    const id = this.nextId++;
    const result = await new Promise<unknown>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.port.send({ kind: 'request', id, method, params });
    });
    const schema: z.ZodType = MainMethods[method].result;
    return parseAtBoundary(schema, result, `${method} (reply from main)`) as MainResult<M>;
  }

  private receive(raw: unknown): void {
    const parsed = PortMessageSchema.safeParse(raw);
    if (!parsed.success) return; // not ours: nothing half-processed
    const msg = parsed.data;
    switch (msg.kind) {
      case 'ping':
        this.port.send({ kind: 'pong', seq: msg.seq });
        return;
      case 'request':
        void this.serve(msg.id, msg.method, msg.params);
        return;
      case 'response': {
        const waiter = this.pending.get(msg.id);
        if (!waiter) return;
        this.pending.delete(msg.id);
        if (msg.ok) waiter.resolve(msg.result);
        else waiter.reject(new GatehouseError(msg.error.code, msg.error.message));
        return;
      }
      default:
        return;
    }
  }

  private async serve(id: number, method: string, params: unknown): Promise<void> {
    try {
      if (!Object.prototype.hasOwnProperty.call(WorkerMethods, method)) {
        throw new GatehouseError('UNKNOWN_METHOD', `the worker has no method "${method.slice(0, 100)}"`);
      }
      const m = method as WorkerMethod;
      const valid = parseAtBoundary(WorkerMethods[m].params, params, m);
      const handler = this.handlers[m] as (p: unknown) => Promise<unknown>;
      const result = await handler(valid);
      this.port.send({ kind: 'response', id, ok: true, result });
    } catch (err) {
      this.port.send({ kind: 'response', id, ok: false, error: toRpcError(err) });
    }
  }
}
