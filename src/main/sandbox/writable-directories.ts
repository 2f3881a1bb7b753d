/**
 * The additional directories a run's tools may write, sandbox included: the shell's own (already real paths) and
 * `permissions.additionalDirectories` exactly as the engine resolved them (real paths, `~` expanded, relative to the
 * project, an untrusted project's own settings left out). Folders that do not exist are dropped: there is nothing to
 * bind, and a later `mkdir` there stays outside.
 */
import fs from 'node:fs';
import type { PermissionEngine } from '../permission';

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

export function writableDirectories(engine: PermissionEngine, shellDirectories: readonly string[] = []): string[] {
  const engineRoots = engine.state.current().confinement.roots.slice(1); // [0] is the project root
  return [...new Set([...shellDirectories, ...engineRoots])].filter(isDirectory);
}
