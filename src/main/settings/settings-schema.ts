import { z } from 'zod';
import { PermissionModeSchema } from '../../shared/permission';
import { UpdateUrlSchema } from '../../shared/updates-contract';

/**
 * The `permissions` block shared by Gatehouse's YAML settings and Claude Code's settings.json. Other keys
 * (`trust:`, `sandbox:`, `model:`, Claude Code's `defaultMode`...) are allowed and ignored here.
 */
export const PermissionsSettingsSchema = z.looseObject({
  mode: PermissionModeSchema.optional(),
  allow: z.array(z.string()).optional(),
  ask: z.array(z.string()).optional(),
  deny: z.array(z.string()).optional(),
  additionalDirectories: z.array(z.string().min(1)).optional(),
});
export type PermissionsSettings = z.infer<typeof PermissionsSettingsSchema>;

/**
 * The `updates:` block, read from the user's own settings.yaml only (a project must never choose where the app's
 * updates come from): `url`, the https folder of the update server (latest*.yml and the packages).
 */
export const UpdateSettingsSchema = z.strictObject({ url: UpdateUrlSchema.optional() });

export const SettingsFileSchema = z.looseObject({
  permissions: PermissionsSettingsSchema.nullish(),
});

/** Settings of one file after validation: what the engine uses. */
export interface FileSettings {
  mode?: PermissionsSettings['mode'];
  allow: string[];
  ask: string[];
  deny: string[];
  additionalDirectories: string[];
}

export const EMPTY_SETTINGS: FileSettings = {
  mode: undefined,
  allow: [],
  ask: [],
  deny: [],
  additionalDirectories: [],
};
