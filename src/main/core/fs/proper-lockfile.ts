import { createRequire } from 'node:module';

type ProperLockfile = typeof import('proper-lockfile');

const require = createRequire(import.meta.url);
let loaded: ProperLockfile | null = null;

/**
 * proper-lockfile, required when a lock is first taken rather than when a module that may take one loads: it brings
 * graceful-fs (which clones and patches fs, loading Node's streams) and signal-exit (which installs signal handlers),
 * which a one-shot CLI command that writes nothing (`gatehouse permissions check`) should not pay for at start.
 */
export function properLockfile(): ProperLockfile {
  loaded ??= require('proper-lockfile') as ProperLockfile;
  return loaded;
}
