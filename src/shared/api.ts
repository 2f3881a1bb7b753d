import { z } from 'zod';
import { AuditChannels } from './audit-contract';
import { ChatChannels, ChatEventSchemas } from './chat-contract';
import { CheckpointSettingsChannels } from './checkpoint-settings-contract';
import { RewindChannels } from './rewind-contract';
import { HooksChannels } from './hooks-contract';
import { McpChannels } from './mcp-view-contract';
import { RpcErrorSchema } from './errors';
import { ModesChannels, ModesEventSchemas } from './modes-contract';
import { RuleBuilderChannels } from './rule-builder-contract';
import { RulesChannels } from './rules-contract';
import { SandboxChannels } from './sandbox-contract';
import { SettingsChannels, SettingsEventSchemas } from './settings-contract';
import { SkillsChannels } from './skills-view-contract';
import { TrustChannels } from './trust-contract';
import { UpdatesChannels, UpdatesEventSchemas } from './updates-contract';
import { WorkerInfoSchema } from './worker-protocol';

/**
 * The renderer's API: one list of channels, each with a request and a response schema. The preload bridge, the
 * browser shell's socket, the renderer's client and main's handlers are all built from this one table.
 */

const WorkerStatusSchema = z.object({
  state: z.enum(['starting', 'ready', 'restarting', 'failed', 'stopped']),
  /** Plain words for the UI, e.g. why the worker is down and what to do. */
  message: z.string().nullable(),
  restarts: z.number().int().nonnegative(),
  info: WorkerInfoSchema.nullable(),
});
export type WorkerStatus = z.infer<typeof WorkerStatusSchema>;

export const AppInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  shell: z.enum(['desktop', 'browser']),
  project: z.string().nullable(),
  worker: WorkerStatusSchema,
});
export type AppInfo = z.infer<typeof AppInfoSchema>;

const none = z.object({}).strict();

export const ApiChannels = {
  getAppInfo: { request: none, response: AppInfoSchema },
  /** Asks the live worker for its identity (a real round trip through main to the worker process). */
  pingWorker: { request: none, response: WorkerInfoSchema },
  /** Desktop: shows the OS folder picker. Browser shell: not available (the folder comes from --project). */
  openFolderDialog: { request: none, response: z.object({ path: z.string().nullable() }) },
  openProject: {
    request: z.object({ path: z.string().min(1).max(4096) }).strict(),
    response: z.object({ path: z.string() }),
  },
  listRecentProjects: { request: none, response: z.object({ paths: z.array(z.string()) }) },
  /** The folders whose path starts with `prefix` (the path box's completion); `~` is the home folder. */
  completePath: {
    request: z.object({ prefix: z.string().max(4096) }).strict(),
    response: z.object({ folders: z.array(z.string()) }),
  },
  ...AuditChannels,
  ...TrustChannels,
  ...HooksChannels,
  ...McpChannels,
  ...SkillsChannels,
  ...ChatChannels,
  ...RewindChannels,
  ...RulesChannels,
  ...RuleBuilderChannels,
  ...SandboxChannels,
  ...ModesChannels,
  ...SettingsChannels,
  ...CheckpointSettingsChannels,
  ...UpdatesChannels,
} as const;

export type ApiChannel = keyof typeof ApiChannels;
export type ApiRequest<C extends ApiChannel> = z.infer<(typeof ApiChannels)[C]['request']>;
export type ApiResponse<C extends ApiChannel> = z.infer<(typeof ApiChannels)[C]['response']>;
export const API_CHANNELS = Object.keys(ApiChannels) as ApiChannel[];

export function isApiChannel(name: string): name is ApiChannel {
  return Object.prototype.hasOwnProperty.call(ApiChannels, name);
}

/** Events main pushes to the renderer. */
export const ApiEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('workerStatus'), status: WorkerStatusSchema }),
  z.object({ type: z.literal('projectChanged'), path: z.string().nullable() }),
  /** A trust decision changed (set or revoked) for this folder: re-read getTrust. */
  z.object({ type: z.literal('trustChanged'), path: z.string() }),
  /** The desktop menu asks the page to show one of its views. */
  z.object({
    type: z.literal('showView'),
    view: z.enum(['chat', 'rules', 'hooks', 'mcp', 'skills', 'settings', 'about']),
  }),
  ...ChatEventSchemas,
  ...ModesEventSchemas,
  ...SettingsEventSchemas,
  ...UpdatesEventSchemas,
]);
export type ApiEvent = z.infer<typeof ApiEventSchema>;

/** The typed interface every renderer client implements (preload bridge or socket). */
export type GatehouseApi = {
  [C in ApiChannel]: (request: ApiRequest<C>) => Promise<ApiResponse<C>>;
} & {
  onEvent(listener: (event: ApiEvent) => void): () => void;
};

/**
 * The browser shell's socket frames. The first frame a page sends on a new socket is its token (`auth`); nothing
 * else is read, and no event is sent, before the server answers `authenticated`. A wrong or missing token closes
 * the socket with SOCKET_UNAUTHORIZED.
 */
export const SocketAuthSchema = z.object({ kind: z.literal('auth'), token: z.string().min(1).max(512) }).strict();
export const SOCKET_UNAUTHORIZED = 4401;
export const SocketRequestSchema = z.object({
  id: z.number().int().nonnegative(),
  channel: z.string().max(100),
  payload: z.unknown(),
});
export const SocketServerFrameSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('response'), id: z.number().int(), ok: z.literal(true), result: z.unknown() }),
  z.object({ kind: z.literal('error'), id: z.number().int().nullable(), error: RpcErrorSchema }),
  z.object({ kind: z.literal('event'), event: ApiEventSchema }),
  z.object({ kind: z.literal('authenticated') }),
]);
export type SocketServerFrame = z.infer<typeof SocketServerFrameSchema>;

/** Name of the IPC channel in Electron for an API channel. */
export function ipcChannelName(channel: ApiChannel): string {
  return `gatehouse:${channel}`;
}
export const IPC_EVENT_CHANNEL = 'gatehouse:event';
