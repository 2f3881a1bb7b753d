import { z } from 'zod';
import { TrustDefaultSchema, TrustScopeSchema } from './permission';

/**
 * Project trust as the renderer, the CLI and the permission engine see it: the status of a folder, the stored
 * decisions, and what a project would load if trusted. The channels are spread into `ApiChannels` (api.ts).
 */

/** Which decision applies to a folder: a stored or session one, the global default, or a broken store (`error`). */
const TrustDecisionSchema = z.enum(['session', 'directory', 'parent', 'never', 'default', 'error']);

const TrustStoreErrorSchema = z.object({
  /** The store file that could not be used. */
  path: z.string(),
  reason: z.string(),
  /** Where the bad file was copied to, so nothing the person decided is lost. */
  copy: z.string().nullable(),
});
export type TrustStoreError = z.infer<typeof TrustStoreErrorSchema>;

/**
 * Trust is specific: which of the project's extensions a trusted decision enables. `rules`: its allow rules, mode,
 * additional directories and sandbox network (deny and ask rules always apply); `hooks`: its hooks (also Claude
 * Code's); `instructions`: its instruction files (AGENTS.md, CLAUDE.md...); `mcp`: its MCP servers (each also needs
 * the person's approval once). All enabled unless switched off (`mcp` absent in decisions stored before it existed).
 */
export const TrustExtensionsSchema = z.object({
  rules: z.boolean(),
  hooks: z.boolean(),
  instructions: z.boolean(),
  mcp: z.boolean().default(true),
});
export type TrustExtensions = z.infer<typeof TrustExtensionsSchema>;
/** As a caller may give them (`mcp` absent: on). */
export type TrustExtensionsInput = z.input<typeof TrustExtensionsSchema>;
export const ALL_EXTENSIONS: TrustExtensions = { rules: true, hooks: true, instructions: true, mcp: true };

export const TrustStatusSchema = z.object({
  /** The folder's normalised real path. */
  path: z.string(),
  trusted: z.boolean(),
  decision: TrustDecisionSchema,
  /** The scope of the decision that applies; null for the default and for a broken store. */
  scope: TrustScopeSchema.nullable(),
  /** The path the applying decision is keyed by (the folder itself or an ancestor); null for default/error. */
  storedAt: z.string().nullable(),
  /** Where stored decisions live (`trust.json` in the user config dir). */
  storeFile: z.string(),
  default: TrustDefaultSchema,
  /** No decision and the default is `ask`: the person should be asked (the folder is untrusted until then). */
  needsDecision: z.boolean(),
  grantedAt: z.string().nullable(),
  lastOpened: z.string().nullable(),
  /** The folder the decision was made from (for a `parent` decision: the child folder). */
  grantedFrom: z.string().nullable(),
  /** One sentence for people: what applies and why. */
  reason: z.string(),
  error: TrustStoreErrorSchema.nullable(),
  /** A problem reading `trust.default` from the user settings (then `ask` applies). */
  settingsError: z.string().nullable(),
  /** What the applying decision enables (absent or for an untrusted folder: every extension, if it were trusted). */
  extensions: TrustExtensionsSchema.optional(),
});
export type TrustStatus = z.infer<typeof TrustStatusSchema>;

const TrustEntrySchema = z.object({
  path: z.string(),
  scope: TrustScopeSchema,
  grantedAt: z.string(),
  lastOpened: z.string().nullable(),
  grantedFrom: z.string().nullable(),
  /** False for `session` decisions: memory only, gone when the process ends. */
  stored: z.boolean(),
  /** Absent: every extension is enabled. */
  extensions: TrustExtensionsSchema.optional(),
});
export type TrustEntry = z.infer<typeof TrustEntrySchema>;

const fileItem = <T extends z.ZodRawShape>(shape: T) => z.object({ file: z.string(), ...shape });

/** What a project would load if trusted: shown before the person decides. */
export const TrustPreviewSchema = z.object({
  root: z.string(),
  /** `warnings`: an unknown tool, or a hard check that always overrides the rule (it would do nothing). */
  allowRules: z.array(fileItem({ rule: z.string(), warnings: z.array(z.string()).optional() })),
  hooks: z.array(fileItem({ event: z.string(), command: z.string() })),
  instructionFiles: z.array(z.object({ path: z.string(), bytes: z.number().int().nonnegative() })),
  allowedDomains: z.array(fileItem({ domain: z.string() })),
  additionalDirectories: z.array(fileItem({ directory: z.string() })),
  /** The project's skills (`.gatehouse/skills`, `.claude/skills`) and sub-agents (`.gatehouse/agents`, `.claude/agents`). */
  skills: z
    .array(fileItem({ name: z.string(), description: z.string(), warnings: z.array(z.string()).optional() }))
    .optional(),
  agents: z
    .array(fileItem({ name: z.string(), description: z.string(), warnings: z.array(z.string()).optional() }))
    .optional(),
  /**
   * The project's MCP servers (its settings' `mcpServers` and `.mcp.json`): the command line or URL each would start
   * with (each also needs the person's approval once).
   */
  mcpServers: z
    .array(fileItem({ name: z.string(), transport: z.enum(['stdio', 'http']), shown: z.string() }))
    .optional(),
  /** Files that exist but could not be read or parsed, or point outside the project. */
  errors: z.array(fileItem({ reason: z.string() })),
  /** Keys of the project's settings files that Gatehouse does not know (`Deny:`), with line and suggestion. */
  keyProblems: z
    .array(
      fileItem({
        line: z.number().int().nullable(),
        key: z.string(),
        suggestion: z.string().nullable(),
        reason: z.string(),
      }),
    )
    .optional(),
});
export type TrustPreview = z.infer<typeof TrustPreviewSchema>;

const folderPath = z.string().min(1).max(4096);

export const TrustChannels = {
  /** The trust of the open project (or of `path`), with what it would load if trusted (open project only). */
  getTrust: {
    request: z.object({ path: folderPath.optional() }).strict(),
    response: z.object({
      project: z.string().nullable(),
      status: TrustStatusSchema.nullable(),
      /** The parent folder a `parent` decision would trust; null where that is refused (file-system root, home). */
      parent: z.string().nullable(),
      preview: TrustPreviewSchema.nullable(),
    }),
  },
  /** Records the person's answer. Granting trust is only accepted for the open project (a `never` decision may be recorded for other folders too). */
  setTrust: {
    request: z
      .object({
        path: folderPath,
        scope: TrustScopeSchema,
        /** What the decision enables (the trust dialog's switches); absent: every extension (or as before). */
        extensions: TrustExtensionsSchema.optional(),
      })
      .strict(),
    response: z.object({ status: TrustStatusSchema }),
  },
  /** Switches the project extensions (rules, hooks, instructions) the decision that trusts `path` enables. */
  setTrustExtensions: {
    request: z.object({ path: folderPath, extensions: TrustExtensionsSchema.partial().strict() }).strict(),
    response: z.object({ status: TrustStatusSchema }),
  },
  /** Removes the decisions that make `path` trusted (and the one keyed at it); takes effect on the next check. */
  revokeTrust: {
    request: z.object({ path: folderPath }).strict(),
    response: z.object({ removed: z.array(TrustEntrySchema), status: TrustStatusSchema }),
  },
  listTrust: {
    request: z.object({}).strict(),
    response: z.object({
      entries: z.array(TrustEntrySchema),
      default: TrustDefaultSchema,
      error: TrustStoreErrorSchema.nullable(),
    }),
  },
} as const;
