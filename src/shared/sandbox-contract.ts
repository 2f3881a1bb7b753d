import { z } from 'zod';

/**
 * Whether the open project's commands run in the OS sandbox, for the app's persistent banner. The channels are
 * spread into `ApiChannels` (api.ts).
 */

export const SandboxStatusViewSchema = z.object({
  /** False when the user turned the sandbox off in their own settings. */
  enabled: z.boolean(),
  /** True when a working sandbox confines every command (false without an open project). */
  available: z.boolean(),
  /** Why it is unavailable, in plain words; null when it works or is turned off. */
  reason: z.string().nullable(),
  /** Sandbox settings that were not applied (unreadable files, ignored keys). */
  warnings: z.array(z.string()),
});
export type SandboxStatusView = z.infer<typeof SandboxStatusViewSchema>;

export const SandboxChannels = {
  /** The sandbox of the open project, checked by the worker now. */
  getSandboxStatus: { request: z.object({}).strict(), response: SandboxStatusViewSchema },
} as const;
