import { z } from 'zod';
import { DecisionKindSchema, RuleBehaviorSchema } from './permission';
import { EditableScopeSchema } from './rules-contract';

/**
 * The rule builder's channels (rules built by pointing): a project's folders for the file tree, how many files a
 * path rule matches, a command's words as the engine matches them, recent commands, and the replay of the audit log
 * with a rule not written yet. Writing the rule is `addRule` (rules-contract.ts). Spread into `ApiChannels` (api.ts).
 */

const text = z.string().max(4096);

/** A folder the file tree may show: the project, or one of its additional directories (real paths). */
const FolderRootSchema = z.object({
  path: z.string(),
  kind: z.enum(['project', 'additional']),
});
export type FolderRoot = z.infer<typeof FolderRootSchema>;

const FolderEntrySchema = z.object({
  name: z.string(),
  /** `link`: a symbolic link, listed but never opened (where it lands is not where a rule written for it points). */
  kind: z.enum(['dir', 'file', 'link', 'other']),
});
export type FolderEntry = z.infer<typeof FolderEntrySchema>;

/** The most entries one folder listing returns (the rest: `truncated`). */
export const MAX_FOLDER_ENTRIES = 2000;

const CommandWordSchema = z.object({
  text: z.string(),
  /** The word holds `*`: in a rule it matches any run of characters, not only itself. */
  glob: z.boolean(),
  /** The shell expands it when the command runs (`$HOME`, `$(..)`, an unquoted glob): a rule matches its text. */
  dynamic: z.boolean(),
  /** A rule cannot spell it (a line break, or a run of spaces the rule's one-space join cannot match). */
  unusable: z.boolean(),
});
export type CommandWord = z.infer<typeof CommandWordSchema>;

const CommandPartSchema = z.object({
  /** The simple command as written. */
  text: z.string(),
  /** The words an allow rule is matched against: assignments that matter, then the program that runs and its arguments. */
  words: z.array(CommandWordSchema),
  /** Why no allow rule can match this part (a variable that changes what runs, arguments read from input); null: one can. */
  allowBlocked: z.string().nullable(),
});
export type CommandPart = z.infer<typeof CommandPartSchema>;

const CommandWordsSchema = z.object({
  /** False when Gatehouse cannot know what runs: it asks for this command whatever the rules say. */
  readable: z.boolean(),
  reasons: z.array(z.string()),
  parts: z.array(CommandPartSchema),
});
export type CommandWords = z.infer<typeof CommandWordsSchema>;

const ReplayDecisionSchema = z.object({
  decision: DecisionKindSchema,
  source: z.string(),
  rule: z.string().nullable(),
  reason: z.string(),
});
export type ReplayDecision = z.infer<typeof ReplayDecisionSchema>;

const ReplayFlipSchema = z.object({
  /** The newest time the call was made. */
  time: z.string(),
  tool: z.string(),
  /** The call's path, command or pattern (callTarget). */
  target: z.string(),
  /** How many of the replayed calls were this same call. */
  count: z.number().int().positive(),
  /** What the log recorded the last time (a person's answer included). */
  recorded: z.object({ decision: DecisionKindSchema, source: z.string() }),
  /** What the engine decides today without the rule, and with it. */
  before: ReplayDecisionSchema,
  after: ReplayDecisionSchema,
});
export type ReplayFlip = z.infer<typeof ReplayFlipSchema>;

/** How many of the most recent audited calls the replay judges. */
export const REPLAY_CALLS = 200;

const ruleEdit = z.object({ rule: text.min(1), behavior: RuleBehaviorSchema, scope: EditableScopeSchema }).strict();

export const RuleBuilderChannels = {
  /**
   * One folder of the project or of an additional directory, for the file tree: `root` one of `roots` (default: the
   * project), `dir` relative to it (`''`: the root). Refused when it leaves the root or passes through a link.
   */
  listRuleFolder: {
    request: z.object({ root: text.optional(), dir: text }).strict(),
    response: z.object({
      roots: z.array(FolderRootSchema),
      root: z.string(),
      dir: z.string(),
      entries: z.array(FolderEntrySchema).max(MAX_FOLDER_ENTRIES),
      truncated: z.boolean(),
    }),
  },
  /** How many files under the project and its additional directories a path rule matches (bounded: `complete`). */
  countRuleFiles: {
    request: z.object({ rule: text.min(1) }).strict(),
    response: z.object({
      count: z.number().int().nonnegative(),
      /** False when the walk stopped at its bound: `count` is a lower bound. */
      complete: z.boolean(),
      /** A few of the matched files, relative to the project where they are in it. */
      examples: z.array(z.string()).max(5),
    }),
  },
  /** A command cut into the words rules match, one list per simple command (the engine's own bash parser). */
  commandWords: { request: z.object({ command: text.min(1) }).strict(), response: CommandWordsSchema },
  /** The open project's distinct recent commands from the audit log, newest first. */
  recentCommands: {
    request: z.object({}).strict(),
    response: z.object({ commands: z.array(z.string()).max(50) }),
  },
  /**
   * The last REPLAY_CALLS audited calls of the open project judged by the engine today without and with the rule (as if
   * written to its scope's file): the calls it would decide differently, the same call once.
   */
  replayRule: {
    request: ruleEdit,
    response: z.object({
      checked: z.number().int().nonnegative(),
      flips: z.array(ReplayFlipSchema),
    }),
  },
} as const;
