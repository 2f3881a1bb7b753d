import { z } from 'zod';

/**
 * The Hooks page's channel: every hook the settings configure for the open project (Gatehouse's files and Claude
 * Code's), whether each one runs and why not. Read only: hooks are edited in the settings files. Spread into
 * `ApiChannels` (api.ts).
 */

export const HookScopeSchema = z.enum(['policy', 'user', 'project', 'local']);
export type HookScope = z.infer<typeof HookScopeSchema>;

export const HookListEntrySchema = z.object({
  /** Claude Code's event name (PreToolUse, PostToolUse, …), as written. */
  event: z.string(),
  /** The group's matcher as written; '' matches every tool. */
  matcher: z.string(),
  /** `command`; other types (Claude Code's prompt hooks) are listed and never run. */
  type: z.string(),
  command: z.string().nullable(),
  timeoutSeconds: z.number().nonnegative(),
  scope: HookScopeSchema,
  file: z.string(),
  /** `claude`: from Claude Code's settings files (read only here). */
  format: z.enum(['gatehouse', 'claude']),
  active: z.boolean(),
  /** Why it does not run (untrusted project, hooks not enabled by its trust, unknown event, …); null when active. */
  inactiveReason: z.string().nullable(),
  /** Project and local hooks run inside the OS sandbox; user and policy hooks run as the user. */
  sandboxed: z.boolean(),
});
export type HookListEntry = z.infer<typeof HookListEntrySchema>;

export const HooksChannels = {
  /** The open project's hooks, policy first, in the settings' order. */
  listHooks: {
    request: z.object({}).strict(),
    response: z.object({
      project: z.string().nullable(),
      /** The project is trusted right now. */
      trusted: z.boolean(),
      /** Its trust decision enables the project's hooks (true when it is not trusted: nothing to switch). */
      hooksEnabled: z.boolean(),
      hooks: z.array(HookListEntrySchema),
      /** Settings files that could not be read (their hooks cannot be known), with the reason. */
      fileErrors: z.array(z.object({ file: z.string(), reason: z.string() })),
    }),
  },
} as const;
