import { z } from 'zod';

/**
 * Checkpoints of a project's files (one before each prompt that may change them) as every shell shows them: the
 * CLI (`gatehouse checkpoints`), `gatehouse rpc` and the SDK.
 */
const SkippedFileSchema = z.object({ path: z.string(), reason: z.string() });
export type SkippedFile = z.infer<typeof SkippedFileSchema>;

const sha = z.string().regex(/^[0-9a-f]{40,64}$/);
/** A text in the checkpoint folder's `rules/` (a view, or a `.git/info/exclude`), named by its SHA-256. */
const rulesHash = z.string().regex(/^[0-9a-f]{64}$/);

export const CheckpointEntrySchema = z.object({
  /** Short id shown to people (`gatehouse checkpoints restore ID`). */
  id: z.string().regex(/^[0-9a-f]{12}$/),
  /** The commit in the shadow repository; absent when the checkpoint could not be taken (see `error`). */
  commit: sha.optional(),
  sessionId: z.string(),
  /** The prompt's run in the session's transcript. */
  runId: z.string(),
  /** The start of the person's message (for lists). */
  prompt: z.string(),
  createdAt: z.string(),
  kind: z.enum(['turn', 'before-restore']),
  /** Files left out (too large), with why. */
  skipped: z.array(SkippedFileSchema),
  /** Why no checkpoint was taken (too many files, git missing, …). */
  error: z.string().optional(),
  /** The project's files when the run ended (a git tree): changes after it were made by someone else. */
  afterTree: sha.optional(),
  /**
   * The ignore rules when it was taken (every `.gitignore`, `.git/info/exclude`, the global excludes file, as one
   * exclude file): what it covers, whatever the rules say later. Absent in checkpoints taken before views were kept
   * (today's rules judge those).
   */
  view: rulesHash.optional(),
  /** `.git/info/exclude`'s text when it was taken (null: there was none); absent: not noted. */
  exclude: rulesHash.nullable().optional(),
  /** `.git/info/exclude`'s text when the run ended. */
  afterExclude: rulesHash.nullable().optional(),
  /** Files changed outside the agent while its run ran (between its tool calls): by the person or another program. */
  outside: z.array(z.string()).optional(),
  /** A moment of the run could not be noted: every change of the run counts as someone else's (fail safe). */
  outsideUnknown: z.boolean().optional(),
});
export type CheckpointEntry = z.infer<typeof CheckpointEntrySchema>;

const ChangedFileSchema = z.object({
  /** Relative to the project; `.git/info/exclude` names the repository's own ignore rules (restored like a file). */
  path: z.string(),
  /** What a restore does to it: `restore` its content, `recreate` it (deleted since), `delete` it (new since). */
  action: z.enum(['restore', 'recreate', 'delete']),
  /** Changed since the agent's last run ended: by the person or another program. Kept unless confirmed. */
  external: z.boolean(),
});
export type ChangedFile = z.infer<typeof ChangedFileSchema>;

export const CheckpointDiffSchema = z.object({
  entry: CheckpointEntrySchema,
  files: z.array(ChangedFileSchema),
  /** The changes a restore makes, as a unified diff (from now to the checkpoint), cut at 512 KiB. */
  patch: z.string(),
  patchTruncated: z.boolean(),
});
export type CheckpointDiff = z.infer<typeof CheckpointDiffSchema>;

export const RestoreResultSchema = z.object({
  restored: z.array(ChangedFileSchema),
  /** Changed outside the agent and not confirmed: left as they are. */
  kept: z.array(ChangedFileSchema),
  /** The checkpoint of the files as they were just before the restore. */
  undo: CheckpointEntrySchema.nullable(),
});
export type RestoreResult = z.infer<typeof RestoreResultSchema>;
