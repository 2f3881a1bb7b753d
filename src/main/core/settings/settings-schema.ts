import { z } from 'zod';
import { PermissionModeSchema } from '../../../shared/permission';
import { UpdateUrlSchema } from '../../../shared/updates-contract';
import type { FileMcpServer } from './mcp-config';

/**
 * The `permissions` block shared by Gatehouse's YAML settings and Claude Code's settings.json. Other keys
 * (`trust:`, `sandbox:`, `model:`, Claude Code's `defaultMode`...) are allowed and ignored here.
 */
const PermissionsSettingsSchema = z.looseObject({
  mode: PermissionModeSchema.optional(),
  allow: z.array(z.string()).optional(),
  ask: z.array(z.string()).optional(),
  deny: z.array(z.string()).optional(),
  additionalDirectories: z.array(z.string().min(1)).optional(),
});
type PermissionsSettings = z.infer<typeof PermissionsSettingsSchema>;

/**
 * The `updates:` block, read from the user's own settings.yaml only (a project must never choose where the app's
 * updates come from): `url`, the https folder of the update server (latest*.yml and the packages).
 */
export const UpdateSettingsSchema = z.strictObject({ url: UpdateUrlSchema.optional() });

/**
 * The `hooks` block, in Claude Code's shape (so a `.claude/settings.json` works unchanged):
 * `{ EVENT: [{ matcher?, hooks: [{ type: 'command', command, timeout? (seconds) }] }] }`. Events and hook types
 * Gatehouse does not run are kept (listed as inactive), never a reason to reject the file.
 */
const HookCommandSchema = z.looseObject({
  type: z.string(),
  command: z.string().optional(),
  timeout: z.number().positive().max(86_400).optional(),
});
const HookGroupSchema = z.looseObject({
  matcher: z.string().nullish(),
  hooks: z.array(HookCommandSchema),
});
export const HooksSettingsSchema = z.record(z.string(), z.array(HookGroupSchema));

export const SettingsFileSchema = z.looseObject({
  permissions: PermissionsSettingsSchema.nullish(),
  hooks: HooksSettingsSchema.nullish(),
  /** Checked entry by entry (src/main/core/settings/mcp-config.ts): a malformed server never rejects the file. */
  mcpServers: z.unknown().optional(),
});

/** One hook of one file, flattened: the event, its group's matcher, and the hook itself. */
export interface FileHook {
  event: string;
  /** The group's matcher as written; '' when absent (all). */
  matcher: string;
  type: string;
  /** null for a hook type without a command (Claude Code's prompt/http hooks: listed, never run). */
  command: string | null;
  /** Seconds; null: the default. */
  timeout: number | null;
}

/** The hooks block as a flat list, in file order. */
export function flattenHooks(block: z.infer<typeof HooksSettingsSchema> | null | undefined): FileHook[] {
  const out: FileHook[] = [];
  for (const [event, groups] of Object.entries(block ?? {}))
    for (const group of groups)
      for (const h of group.hooks)
        out.push({
          event,
          matcher: group.matcher ?? '',
          type: h.type,
          command: h.command ?? null,
          timeout: h.timeout ?? null,
        });
  return out;
}

/** Settings of one file after validation: what the engine uses. */
export interface FileSettings {
  mode?: PermissionsSettings['mode'];
  allow: string[];
  ask: string[];
  deny: string[];
  additionalDirectories: string[];
  /** Absent in last-good entries written before hooks existed: no hooks. */
  hooks?: FileHook[];
  /** The file's MCP servers that parsed (Gatehouse files only); absent: none. */
  mcpServers?: FileMcpServer[];
  /**
   * Where the file sets what only the person's own settings and the managed policy may (`network.caFile`): in a
   * project's file each is reported as ignored, with the reason. Absent: none.
   */
  userOnlyKeys?: Array<{ key: string; line: number | null; column: number | null }>;
}

export const EMPTY_SETTINGS: FileSettings = {
  mode: undefined,
  allow: [],
  ask: [],
  deny: [],
  additionalDirectories: [],
  hooks: [],
};
