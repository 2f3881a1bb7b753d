/**
 * The worker's environment, built from scratch: only what a process needs to run, never the parent's tokens or
 * secrets. The model key (later) travels over the port, not through here.
 */
const PASS_THROUGH = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LC_ALL',
  'LC_CTYPE',
  'TERM',
  'TMPDIR',
  'TZ',
  // A file of extra root certificates (a path, no secret), set where a TLS-inspecting proxy stands between the user and
  // the internet: without it, the worker could not reach the model's API there, nor could the commands it runs.
  'NODE_EXTRA_CA_CERTS',
];
const WINDOWS_PASS_THROUGH = [
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
];

export function buildWorkerEnv(parent: NodeJS.ProcessEnv, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  const names = process.platform === 'win32' ? [...PASS_THROUGH, ...WINDOWS_PASS_THROUGH] : PASS_THROUGH;
  for (const name of names) {
    const value = parent[name];
    if (typeof value === 'string') env[name] = value;
  }
  return { ...env, ...extra };
}
