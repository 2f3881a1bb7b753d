/**
 * Where secrets live: one table for the engine (reading one asks by default, permission-model.md "Defaults") and the
 * command sandbox (the home folder's credential stores are hidden from every command).
 */

/** Secret files by name, in any folder (globs of one name). */
export const SECRET_FILE_NAMES: readonly string[] = [
  '.env',
  '.env.*',
  '*.pem',
  '*.key',
  'id_rsa*',
  'id_ed25519*',
  '.npmrc',
  '.netrc',
  '.git-credentials',
  '*.p12',
  '*.pfx',
];

/** Secret folders (ending in `/`: everything below) and files by their path, in any folder. */
export const SECRET_PATHS: readonly string[] = ['.ssh/', '.aws/credentials'];

/**
 * Relative to the home folder: what else holds credentials there (cloud and cluster tools, browser profiles, keychains),
 * hidden from sandboxed commands with the secrets above.
 */
const HOME_CREDENTIAL_STORES: readonly string[] = [
  '.aws',
  '.gnupg',
  '.azure',
  '.kube',
  '.docker',
  '.config/gcloud',
  '.config/gh',
  '.pypirc',
  // browser profiles
  '.config/google-chrome',
  '.config/chromium',
  '.config/BraveSoftware',
  '.config/microsoft-edge',
  '.mozilla',
  'snap/firefox',
  'snap/chromium',
  'Library/Application Support/Google/Chrome',
  'Library/Application Support/Chromium',
  'Library/Application Support/Firefox',
  'Library/Safari',
  'Library/Cookies',
  // keychains and secret stores
  'Library/Keychains',
  '.local/share/keyrings',
  '.password-store',
];

/**
 * Relative to the home folder: every secret the sandbox hides there. The secret folders and files above, the secret
 * names that are plain names (`.netrc`), and the credential stores; none below another (a mask covers what is below).
 */
export const HOME_SECRET_PATHS: readonly string[] = (() => {
  const all = [
    ...SECRET_PATHS.map((p) => p.replace(/\/$/, '')),
    ...SECRET_FILE_NAMES.filter((n) => !/[*?[\]]/.test(n) && !n.startsWith('.env')),
    ...HOME_CREDENTIAL_STORES,
  ];
  const unique = [...new Set(all)];
  return unique.filter((p) => !unique.some((other) => other !== p && p.startsWith(`${other}/`)));
})();
