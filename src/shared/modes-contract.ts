import { z } from 'zod';
import { PermissionModeSchema } from './permission';

/**
 * The chat session's permission mode: which mode the engine applies to the open session's next calls, and where it
 * comes from. A session mode beats the settings files, exactly like `gatehouse run --mode`. Spread into
 * `ApiChannels` and the event into `ApiEventSchema` (api.ts).
 */

const PermissionModeStateSchema = z.object({
  /** The mode in force for the session's next call. */
  mode: PermissionModeSchema,
  /** `session`: chosen for this session; `settings`: from a settings file; `default`: nothing set anywhere. */
  source: z.enum(['session', 'settings', 'default']),
  /** The settings file the settings' mode comes from (null when none sets one). */
  settingsFile: z.string().nullable(),
  /** What the settings files say: the mode the session falls back to when its own choice is cleared. */
  settingsMode: PermissionModeSchema,
  trusted: z.boolean(),
  /** Why bypass cannot be chosen here, or null when it can. */
  bypassUnavailable: z.string().nullable(),
  /** Why auto cannot be chosen here (an untrusted project, like bypass), or null when it can. */
  autoUnavailable: z.string().nullable(),
});
export type PermissionModeState = z.infer<typeof PermissionModeStateSchema>;

export const ModesChannels = {
  getPermissionMode: { request: z.object({}).strict(), response: PermissionModeStateSchema },
  /** `mode: null` clears the session's choice (back to the settings' mode). Bypass is refused in an untrusted project. */
  setPermissionMode: {
    request: z.object({ mode: PermissionModeSchema.nullable() }).strict(),
    response: PermissionModeStateSchema,
  },
} as const;

export const ModesEventSchemas = [
  /** The session's mode changed without the page asking (e.g. trust was revoked while in bypass): re-render. */
  z.object({ type: z.literal('permissionModeChanged'), state: PermissionModeStateSchema, reason: z.string() }),
] as const;
