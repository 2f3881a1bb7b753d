import path from 'node:path';
import { comparable, isInside, resolveRealPath } from './path-confinement';

/**
 * Self-protection (permission-model.md, hard checks): the agent may not write Gatehouse's own settings, rules or
 * trust files (`.gatehouse/**` in the project, the user config directory, the policy file) nor the Claude Code
 * settings files Gatehouse reads as rules. Compared by real path (and as written), so a symlink does not help.
 */
export class ProtectedPaths {
  private readonly folders: string[];
  private readonly files: string[];

  constructor(opts: { projectRoot: string; configDir: string; home: string; policyFile: string }) {
    const both = (p: string): string[] => [...new Set([path.resolve(p), resolveRealPath(p, opts.projectRoot, opts.home)])];
    this.folders = [...both(path.join(opts.projectRoot, '.gatehouse')), ...both(opts.configDir)];
    this.files = [
      path.join(opts.projectRoot, '.claude', 'settings.json'),
      path.join(opts.projectRoot, '.claude', 'settings.local.json'),
      path.join(opts.home, '.claude', 'settings.json'),
      opts.policyFile,
    ].flatMap(both).map(comparable);
  }

  /** Why writing `absolutePath` is forbidden, or null. Give it the real path and the path as written (absolute). */
  reason(absolutePath: string): string | null {
    const folder = this.folders.find((f) => isInside(absolutePath, f));
    if (folder) return `Gatehouse's own settings, rules and trust files (${folder}) cannot be written by the agent`;
    if (this.files.includes(comparable(path.resolve(absolutePath)))) {
      return `${path.basename(path.dirname(absolutePath))}/${path.basename(absolutePath)} holds permission rules Gatehouse reads: the agent cannot write it`;
    }
    return null;
  }
}
