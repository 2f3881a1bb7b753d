import { z } from 'zod';

/**
 * The Settings page's "Updates" line: the running version and what the updater is doing, "Check now", and
 * "Restart to update" once an update is downloaded. Only the desktop app updates itself; other shells answer
 * `unavailable`. The channels are spread into `ApiChannels` and the event into `ApiEventSchema` (api.ts).
 */

const none = z.object({}).strict();

const UpdateStateSchema = z.enum([
  /** This shell or build does not update itself (browser shell, development build). */
  'unavailable',
  /** No update address, or updates cannot be verified here; `message` says which. */
  'off',
  'idle',
  'checking',
  'up-to-date',
  'downloading',
  /** Downloaded and verified: installed on quit, or now with installUpdate. */
  'ready',
  'error',
]);
export type UpdateState = z.infer<typeof UpdateStateSchema>;

export const UpdateStatusSchema = z.object({
  currentVersion: z.string(),
  state: UpdateStateSchema,
  /** Plain words for the page: what is happening, or why not. */
  message: z.string(),
  /** The version found (downloading, ready); null otherwise. */
  version: z.string().nullable(),
  /** Download progress, 0–100, while downloading. */
  percent: z.number().min(0).max(100).nullable(),
  /** When the last check finished (ISO 8601), or null. */
  checkedAt: z.string().nullable(),
});
export type UpdateStatus = z.infer<typeof UpdateStatusSchema>;

/** `updates.url` in the user's own settings.yaml: the update server's folder (https only). */
export const UpdateUrlSchema = z
  .string()
  .trim()
  .max(2000, 'at most 2000 characters')
  .pipe(z.url({ protocol: /^https$/, error: 'an https:// address, e.g. https://updates.example.com/gatehouse' }));

export const UpdatesChannels = {
  getUpdateStatus: { request: none, response: UpdateStatusSchema },
  /** Checks the update server now (and downloads an update it finds); answers with the status after the check. */
  checkForUpdates: { request: none, response: UpdateStatusSchema },
  /** Quits and installs a downloaded update (state `ready` only). */
  installUpdate: { request: none, response: UpdateStatusSchema },
} as const;

export const UpdatesEventSchemas = [z.object({ type: z.literal('updateStatus'), status: UpdateStatusSchema })] as const;
