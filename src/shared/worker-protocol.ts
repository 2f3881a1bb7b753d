import { z } from 'zod';
import { RpcErrorSchema } from './errors';
import { DecisionSchema } from './permission';

/**
 * The typed port between main and the worker. Both directions may send requests (main asks the worker to do
 * things; the worker asks main for a permission decision before every tool call). Every request carries an id;
 * its response carries the same id.
 */
export const WORKER_PROTOCOL_VERSION = 1;

export const WorkerInfoSchema = z.object({
  protocol: z.number().int(),
  version: z.string(),
  pid: z.number().int(),
  runtime: z.enum(['node', 'electron']),
  nodeVersion: z.string(),
  startedAt: z.string(),
  /** Names (never values) of the worker's environment variables: shows it was built from scratch. */
  envNames: z.array(z.string()),
});
export type WorkerInfo = z.infer<typeof WorkerInfoSchema>;

/** Methods main may call on the worker: params and result schemas. */
export const WorkerMethods = {
  info: { params: z.object({}), result: WorkerInfoSchema },
  /** Waits, then answers: used by the supervisor's tests and the benchmark to hold a request in flight. */
  delay: { params: z.object({ ms: z.number().int().min(0).max(60_000) }), result: z.object({ sleptMs: z.number() }) },
  echo: { params: z.object({ value: z.string().max(1_000_000) }), result: z.object({ value: z.string() }) },
} as const;
export type WorkerMethod = keyof typeof WorkerMethods;
export type WorkerParams<M extends WorkerMethod> = z.infer<(typeof WorkerMethods)[M]['params']>;
export type WorkerResult<M extends WorkerMethod> = z.infer<(typeof WorkerMethods)[M]['result']>;

export const PermissionRequestSchema = z.object({
  tool: z.string(),
  input: z.unknown(),
  /** A read-only preview for the approval UI, e.g. the unified diff a write would make. */
  preview: z.object({ kind: z.literal('diff'), path: z.string(), unifiedDiff: z.string() }).optional(),
});
export type PermissionRequest = z.infer<typeof PermissionRequestSchema>;

/** Methods the worker may call on main. */
export const MainMethods = {
  'permission.request': { params: PermissionRequestSchema, result: DecisionSchema },
} as const;
export type MainMethod = keyof typeof MainMethods;
export type MainParams<M extends MainMethod> = z.infer<(typeof MainMethods)[M]['params']>;
export type MainResult<M extends MainMethod> = z.infer<(typeof MainMethods)[M]['result']>;

const id = z.number().int().nonnegative();

export const HelloSchema = z.object({ kind: z.literal('hello'), info: WorkerInfoSchema });
export const RequestSchema = z.object({ kind: z.literal('request'), id, method: z.string(), params: z.unknown() });
export const ResponseSchema = z.discriminatedUnion('ok', [
  z.object({ kind: z.literal('response'), id, ok: z.literal(true), result: z.unknown() }),
  z.object({ kind: z.literal('response'), id, ok: z.literal(false), error: RpcErrorSchema }),
]);
export const PingSchema = z.object({ kind: z.literal('ping'), seq: z.number().int() });
export const PongSchema = z.object({ kind: z.literal('pong'), seq: z.number().int() });
export const WorkerEventSchema = z.object({ kind: z.literal('event'), event: z.string(), data: z.unknown() });

/** Anything on the port, either direction. Method params/results are validated per method after this. */
export const PortMessageSchema = z.union([HelloSchema, RequestSchema, ResponseSchema, PingSchema, PongSchema, WorkerEventSchema]);
export type PortMessage = z.infer<typeof PortMessageSchema>;
export type RequestMessage = z.infer<typeof RequestSchema>;
export type ResponseMessage = z.infer<typeof ResponseSchema>;
