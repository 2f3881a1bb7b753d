import { z } from 'zod';
import { DecisionSchema, PermissionModeSchema, RuleBehaviorSchema } from './permission';

/**
 * The rules editor's channels: every rule the engine sees for the open project, editing Gatehouse's own settings
 * files, live syntax validation and the "Test a call" simulator. Spread into `ApiChannels` (api.ts).
 */

/** Where a rule lives. `claude` marks rules imported from Claude Code's settings files (read only). */
const RuleScopeSchema = z.enum(['policy', 'cli', 'session', 'local', 'project', 'user']);
export type RuleScope = z.infer<typeof RuleScopeSchema>;

/** The scopes the editor writes to. */
export const EditableScopeSchema = z.enum(['user', 'project', 'local']);
export type EditableScope = z.infer<typeof EditableScopeSchema>;

const RuleEntrySchema = z.object({
  rule: z.string(),
  behavior: RuleBehaviorSchema,
  scope: RuleScopeSchema,
  /** The settings file it came from, or null (CLI flags, session approvals). */
  file: z.string().nullable(),
  /** True when the rule comes from a Claude Code settings file (imported, read only). */
  claudeImport: z.boolean(),
  /** False for policy and Claude Code imports. */
  editable: z.boolean(),
  /** False for rules naming a tool Gatehouse does not have (kept, match nothing). */
  appliesToTools: z.boolean(),
  /** What the person should know: an unknown tool ("did you mean Bash?"), a hard check that always overrides it. */
  warnings: z.array(z.string()).optional(),
});
export type RuleEntry = z.infer<typeof RuleEntrySchema>;

const RuleParseErrorSchema = z.object({
  rule: z.string(),
  behavior: RuleBehaviorSchema,
  scope: RuleScopeSchema,
  file: z.string().nullable(),
  reason: z.string(),
});

const SettingsFileErrorSchema = z.object({
  file: z.string(),
  line: z.number().int().nullable(),
  column: z.number().int().nullable(),
  reason: z.string(),
  /** `file`: the file was not applied; `unknownKey`: a key Gatehouse does not know (the rest of the file applies). */
  kind: z.enum(['file', 'unknownKey']).optional(),
  /** For an unknown key: the known key it probably means (`permissions.deny`). */
  suggestion: z.string().nullable().optional(),
  /** What this means for the rules, in words ("not applied; its last good version stays in force"). */
  effect: z.string().optional(),
});

export const RulesListSchema = z.object({
  project: z.string(),
  trusted: z.boolean(),
  rules: z.array(RuleEntrySchema),
  ruleErrors: z.array(RuleParseErrorSchema),
  fileErrors: z.array(SettingsFileErrorSchema),
  mode: z.object({ mode: PermissionModeSchema, source: RuleScopeSchema, file: z.string() }).nullable(),
  additionalDirectories: z.array(z.object({ dir: z.string(), source: RuleScopeSchema, file: z.string() })),
  /** The file each editable scope writes to. */
  scopeFiles: z.object({ user: z.string(), project: z.string(), local: z.string() }),
  /** The default permission mode each editable scope's file sets (null: none, or the file does not load). */
  scopeModes: z.object({
    user: PermissionModeSchema.nullable(),
    project: PermissionModeSchema.nullable(),
    local: PermissionModeSchema.nullable(),
  }),
});
export type RulesList = z.infer<typeof RulesListSchema>;

const ruleText = z.string().max(4096);
const ruleEdit = z.object({ rule: ruleText.min(1), behavior: RuleBehaviorSchema, scope: EditableScopeSchema }).strict();
const editResult = z.object({ changed: z.boolean(), file: z.string() });
/** A rule to delete: from a settings file, or one of the open chat session's own rules (`session`). */
const ruleRemoval = z
  .object({
    rule: ruleText.min(1),
    behavior: RuleBehaviorSchema,
    scope: z.enum([...EditableScopeSchema.options, 'session']),
  })
  .strict();
const directory = z.string().trim().min(1).max(4096);

export const RulesChannels = {
  listRules: { request: z.object({}).strict(), response: RulesListSchema },
  addRule: { request: ruleEdit, response: editResult },
  removeRule: { request: ruleRemoval, response: editResult },
  /**
   * Edits a rule (text, behaviour) and/or moves it to another scope. Another scope: added there first, then removed
   * here, each file written atomically, so a failed second write never loses the rule.
   */
  updateRule: {
    request: z.object({ from: ruleEdit, to: ruleEdit }).strict(),
    response: z.object({ changed: z.boolean(), files: z.array(z.string()) }),
  },
  /** A scope file's default permission mode (null removes it). Bypass is refused for an untrusted project's own files. */
  setScopeMode: {
    request: z.object({ scope: EditableScopeSchema, mode: PermissionModeSchema.nullable() }).strict(),
    response: editResult,
  },
  /** `permissions.additionalDirectories` of a scope file; the directory must exist (relative to the project root). */
  addDirectory: {
    request: z.object({ scope: EditableScopeSchema, dir: directory }).strict(),
    response: editResult.extend({ resolved: z.string() }),
  },
  removeDirectory: { request: z.object({ scope: EditableScopeSchema, dir: directory }).strict(), response: editResult },
  /** Parses a rule with the engine's parser; `warnings`: what it will not do (an unknown tool, a hard check wins). */
  validateRule: {
    request: z.object({ rule: ruleText, behavior: RuleBehaviorSchema.optional() }).strict(),
    response: z.object({ ok: z.boolean(), error: z.string().optional(), warnings: z.array(z.string()).optional() }),
  },
  /** The same engine call as `gatehouse permissions check` for the open project, plus the open chat session's own rules. */
  testCall: {
    request: z.object({ tool: z.string().min(1).max(100), input: z.record(z.string(), z.unknown()) }).strict(),
    response: DecisionSchema,
  },
} as const;
