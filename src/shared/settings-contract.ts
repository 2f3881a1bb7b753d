import { z } from 'zod';

/**
 * The Settings page: the model, its API key and the theme, from the user's own settings (never a project's). The
 * key goes one way only: the page may send one to save, and no channel or event ever carries it back (the view
 * says only whether a key is set, where it comes from and, for a long key, its last four characters). The
 * channels are spread into `ApiChannels` and the events into `ApiEventSchema` (api.ts).
 */

const none = z.object({}).strict();

export const ThemeSchema = z.enum(['light', 'dark', 'system']);
export type Theme = z.infer<typeof ThemeSchema>;

/** A model id as the Anthropic API (or a compatible proxy) names it: `claude-sonnet-4-5`, `us.anthropic.x:0`... */
export const ModelNameSchema = z
  .string()
  .trim()
  .min(1, 'enter a model name')
  .max(200, 'at most 200 characters')
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:@/-]*$/, 'letters, digits and . _ : @ / - only (no spaces)');

export const BaseUrlSchema = z
  .string()
  .trim()
  .max(2000, 'at most 2000 characters')
  .pipe(z.url({ protocol: /^https?$/, error: 'an http:// or https:// address, e.g. https://proxy.example.com' }));

/**
 * `network.caFile`: a PEM file of root certificates to trust beside the system's (a TLS-inspecting proxy's), an
 * absolute path or one starting with `~/`. Read from your own settings and the managed policy only.
 */
export const CaFileSettingSchema = z
  .string()
  .trim()
  .min(1, 'enter the path of a PEM file')
  .max(4096, 'at most 4096 characters')
  .refine((p) => !p.includes('\0'), 'no NUL character');

/** A key to save: printable, without spaces; its value never appears in an error message. */
export const ApiKeyInputSchema = z
  .string()
  .trim()
  .min(8, 'too short to be an API key')
  .max(1000, 'at most 1000 characters')
  .regex(/^[\x21-\x7e]+$/, 'printable characters only, no spaces');

/** Where the key the chat uses comes from (the first of these that has one wins). */
const KeySourceSchema = z.enum(['environment', 'secure-store', 'settings-file', 'none']);
export type KeySource = z.infer<typeof KeySourceSchema>;

const ValueSourceSchema = z.enum(['environment', 'settings-file', 'default', 'none']);

export const AppSettingsViewSchema = z.object({
  model: z.object({
    /** `model.name` in the user's settings.yaml (what the text box edits); null when unset. */
    saved: z.string().nullable(),
    /** The model the next message uses, and why (ANTHROPIC_MODEL beats the file). */
    effective: z.string(),
    source: ValueSourceSchema,
  }),
  baseURL: z.object({
    saved: z.string().nullable(),
    effective: z.string().nullable(),
    source: ValueSourceSchema,
  }),
  apiKey: z.object({
    set: z.boolean(),
    source: KeySourceSchema,
    /** The last four characters of a key of 16 or more; null otherwise. Never more. */
    last4: z.string().max(4).nullable(),
    /** Where "Save key" puts a key in this shell. */
    storage: z.enum(['secure-store', 'settings-file']),
    /** How "Save key" keeps it, in words that follow "stores it": "encrypted by …" or "as plain text … in settings.yaml". */
    storageNote: z.string(),
    /** Why "Save key" cannot work here (no OS encryption) or a saved key cannot be used (undecryptable, the desktop's); else null. */
    unavailable: z.string().nullable(),
  }),
  /** Auto mode's classifier model: `auto.classifierModel` in the user's settings.yaml (null: unset) and the one used. */
  classifierModel: z.object({ saved: z.string().nullable(), effective: z.string() }),
  theme: ThemeSchema,
  /** The user's settings file, and what in it was ignored (malformed blocks), in plain words. */
  settingsFile: z.string(),
  warnings: z.array(z.string()),
});
export type AppSettingsView = z.infer<typeof AppSettingsViewSchema>;

export const SettingsChannels = {
  getAppSettings: { request: none, response: AppSettingsViewSchema },
  /** Saves `model.name` / `model.baseURL` in the user's settings.yaml; null removes the entry, absent keeps it. */
  saveModelSettings: {
    request: z
      .object({ name: ModelNameSchema.nullable().optional(), baseURL: BaseUrlSchema.nullable().optional() })
      .strict(),
    response: AppSettingsViewSchema,
  },
  /** Saves `auto.classifierModel` in the user's settings.yaml; null removes it (the default small model). */
  saveAutoSettings: {
    request: z.object({ classifierModel: ModelNameSchema.nullable() }).strict(),
    response: AppSettingsViewSchema,
  },
  /** Stores a key (desktop: the OS-encrypted store; browser shell: settings.yaml). The answer never holds it. */
  saveApiKey: { request: z.object({ apiKey: ApiKeyInputSchema }).strict(), response: AppSettingsViewSchema },
  /** Removes the stored key (secure store and settings.yaml); a key from the environment stays. */
  removeApiKey: { request: none, response: AppSettingsViewSchema },
  setTheme: { request: z.object({ theme: ThemeSchema }).strict(), response: AppSettingsViewSchema },
} as const;

export const SettingsEventSchemas = [
  /** The user's settings changed (this page or another): re-read getAppSettings. Carries nothing else. */
  z.object({ type: z.literal('settingsChanged') }),
] as const;
