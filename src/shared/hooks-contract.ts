import { z } from 'zod';

/**
 * The Hooks page's channels: every hook the settings configure for the open project (Gatehouse's files and Claude
 * Code's), whether each one runs and why not; adding, editing and deleting the hooks of Gatehouse's own user,
 * project and local files (Claude Code's files and policy are read only). Spread into `ApiChannels` (api.ts).
 */

const HookScopeSchema = z.enum(['policy', 'user', 'project', 'local']);
export type HookScope = z.infer<typeof HookScopeSchema>;

const HookListEntrySchema = z.object({
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
  /** Editable here: a command hook of Gatehouse's own user, project or local file. */
  editable: z.boolean(),
  /** Why it is read only (Claude Code's file, policy, not a command hook); null when editable. */
  readOnlyReason: z.string().nullable(),
});
export type HookListEntry = z.infer<typeof HookListEntrySchema>;

/** The events Gatehouse runs hooks for, in Claude Code's names: the ones a hook can be added for here. */
export const HookEventSchema = z.enum([
  'PreToolUse',
  'PostToolUse',
  'UserPromptSubmit',
  'SessionStart',
  'Stop',
  'Notification',
]);
export type HookEvent = z.infer<typeof HookEventSchema>;

export const EditableHookScopeSchema = z.enum(['user', 'project', 'local']);
export type EditableHookScope = z.infer<typeof EditableHookScopeSchema>;

/** One command hook as the form writes it (the matcher is checked by main: names, `*`, or a regular expression). */
const HookSpecSchema = z
  .object({
    event: HookEventSchema,
    matcher: z.string().max(1_000),
    command: z.string().trim().min(1, 'a hook needs a command').max(10_000),
    /** Seconds; absent: the default (60). */
    timeoutSeconds: z.number().int().min(1).max(86_400).optional(),
  })
  .strict();
export type HookSpec = z.infer<typeof HookSpecSchema>;

/** Which hook an edit or a delete means: as listed (a hook changed on disk meanwhile is not found). */
const HookRefSchema = z
  .object({ event: z.string().min(1).max(200), matcher: z.string().max(1_000), command: z.string().min(1).max(10_000) })
  .strict();
export type HookRef = z.infer<typeof HookRefSchema>;

const hookEditResult = z.object({ changed: z.boolean(), file: z.string() });

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
      /** The file each editable scope writes. */
      scopeFiles: z.object({ user: z.string(), project: z.string(), local: z.string() }).nullable(),
    }),
  },
  /** Adds a command hook to a scope's file (false `changed`: the same hook is already there). */
  addHook: {
    request: z.object({ scope: EditableHookScopeSchema, hook: HookSpecSchema }).strict(),
    response: hookEditResult,
  },
  /** Changes a hook where it stands (its event or matcher changed: it moves to that group), in one write. */
  updateHook: {
    request: z.object({ scope: EditableHookScopeSchema, from: HookRefSchema, to: HookSpecSchema }).strict(),
    response: hookEditResult,
  },
  removeHook: {
    request: z.object({ scope: EditableHookScopeSchema, hook: HookRefSchema }).strict(),
    response: hookEditResult,
  },
  /** The form's live check of a matcher: an error (never saved) or warnings (unknown tool names). */
  validateHookMatcher: {
    request: z.object({ event: HookEventSchema, matcher: z.string().max(1_000) }).strict(),
    response: z.object({ error: z.string().nullable(), warnings: z.array(z.string()) }),
  },
} as const;
