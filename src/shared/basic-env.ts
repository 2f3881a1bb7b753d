/**
 * The environment variables a program needs to run, none of which identifies a secret. The worker's environment is
 * built from these (by main: worker-env.ts), and so is a stdio MCP server's (by the worker: mcp-spawn.ts), each with a
 * few of its own.
 */
export const BASIC_ENV_NAMES: readonly string[] = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'TERM',
  'TZ',
  'TMPDIR',
  // A file of extra root certificates (a path), set where a TLS-inspecting proxy stands between the user and the
  // internet: without it, no TLS connection made through that proxy (the model's API, a server's own) verifies.
  'NODE_EXTRA_CA_CERTS',
];

/**
 * What a program needs to run on Windows besides those (the system folder, how names become programs, temp and
 * profile folders, where programs are installed). None identifies a secret.
 */
export const WINDOWS_ENV_NAMES: readonly string[] = [
  'SystemRoot',
  'SYSTEMROOT',
  'windir',
  'ComSpec',
  'PATHEXT',
  'TEMP',
  'TMP',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
  'ProgramFiles',
  'ProgramW6432',
];
