import { BASIC_ENV_NAMES, WINDOWS_ENV_NAMES } from '../../../shared/basic-env';
import { GIT_BASH_VARIABLES } from '../../../shared/node/windows-shell';

/**
 * The worker's environment, built from scratch: only what a process needs to run, never the parent's tokens or
 * secrets. The model key (later) travels over the port, not through here.
 */
const PASS_THROUGH = [
  ...BASIC_ENV_NAMES,
  'LC_ALL',
  'LC_CTYPE',
  // Where the worker keeps its compiled code (shared/node/code-cache.ts: the user's cache folder, as the CLI's), and
  // the switch that turns that cache off.
  'XDG_CACHE_HOME',
  'GATEHOUSE_CODE_CACHE',
];
// Windows: its basics, and where a person said Git Bash is (the worker looks for the shell commands run in).
const WINDOWS_PASS_THROUGH = [...WINDOWS_ENV_NAMES, ...GIT_BASH_VARIABLES];

export function buildWorkerEnv(parent: NodeJS.ProcessEnv, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  const names = process.platform === 'win32' ? [...PASS_THROUGH, ...WINDOWS_PASS_THROUGH] : PASS_THROUGH;
  for (const name of names) {
    const value = parent[name];
    if (typeof value === 'string') env[name] = value;
  }
  return { ...env, ...extra };
}
