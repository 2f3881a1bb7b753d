import { GatehouseError } from '../../../shared/errors';

interface Pending {
  method: string;
  resolve: (value: unknown) => void;
  reject: (err: GatehouseError) => void;
  timer: NodeJS.Timeout | null;
}

/** Requests main has sent to the worker and not yet had answered: correlated by id, each with a timeout. */
export class PendingRequests {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  open(method: string, timeoutMs: number): { id: number; promise: Promise<unknown> } {
    const id = this.nextId++;
    const promise = new Promise<unknown>((resolve, reject) => {
      const timer =
        timeoutMs > 0
          ? setTimeout(() => {
              this.pending.delete(id);
              reject(new GatehouseError('TIMEOUT', `the worker did not answer "${method}" within ${timeoutMs} ms`));
            }, timeoutMs)
          : null;
      this.pending.set(id, { method, resolve, reject, timer });
    });
    return { id, promise };
  }

  settle(id: number, outcome: { ok: true; result: unknown } | { ok: false; error: GatehouseError }): void {
    const p = this.pending.get(id);
    if (!p) return; // late answer after a timeout or crash: dropped
    this.pending.delete(id);
    if (p.timer) clearTimeout(p.timer);
    if (outcome.ok) p.resolve(outcome.result);
    else p.reject(outcome.error);
  }

  /** Fails every request in flight, e.g. when the worker died. */
  failAll(makeError: (method: string) => GatehouseError): void {
    const all = [...this.pending.values()];
    this.pending.clear();
    for (const p of all) {
      if (p.timer) clearTimeout(p.timer);
      p.reject(makeError(p.method));
    }
  }

  get size(): number {
    return this.pending.size;
  }
}
