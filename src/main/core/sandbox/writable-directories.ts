/**
 * The additional directories a run's tools may write, sandbox included: the shell's own (already real paths) and
 * `permissions.additionalDirectories` exactly as the engine resolved them (real paths, `~` expanded, relative to the
 * project, an untrusted project's own settings left out). Folders that do not exist are dropped: there is nothing to
 * bind, and a later `mkdir` there stays outside.
 */
import fs from 'node:fs';
import type { PermissionEngine } from '../permission/engine';

async function isDirectory(p: string): Promise<boolean> {
  try {
    return (await fs.promises.stat(p)).isDirectory();
  } catch {
    return false;
  }
}

export async function writableDirectories(
  engine: PermissionEngine,
  shellDirectories: readonly string[] = [],
): Promise<string[]> {
  const engineRoots = (await engine.state.current()).confinement.roots.slice(1); // [0] is the project root
  const candidates = [...new Set([...shellDirectories, ...engineRoots])];
  const present = await Promise.all(candidates.map(isDirectory));
  return candidates.filter((_, i) => present[i]);
}
