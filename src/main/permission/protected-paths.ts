import path from 'node:path';
import { FS_CASE, isInside } from '../../shared/node/path-containment';
import { comparable, resolveRealPath } from './path-confinement';

/**
 * Self-protection (permission-model.md, hard checks): the agent may not write Gatehouse's own settings, rules or
 * trust files (`.gatehouse/**` and `.claude/**` in the project, the user config directory, the policy file) nor the
 * user's Claude Code settings files Gatehouse reads as rules. Compared by real path (and as written), so a symlink
 * does not help.
 */
export class ProtectedPaths {
  private readonly folders: { path: string; claude: boolean }[];
  private readonly files: string[];

  constructor(opts: { projectRoot: string; configDir: string; home: string; policyFile: string }) {
    const both = (p: string): string[] => [
      ...new Set([path.resolve(p), resolveRealPath(p, opts.projectRoot, opts.home)]),
    ];
    // The whole project .claude/ folder (contract "Assurance"): its settings are rules, its agents, commands and
    // skills grant tools. The user's own ~/.claude/settings.json is a file Gatehouse reads as rules.
    this.folders = [
      ...both(path.join(opts.projectRoot, '.gatehouse')).map((p) => ({ path: p, claude: false })),
      ...both(path.join(opts.projectRoot, '.claude')).map((p) => ({ path: p, claude: true })),
      ...both(opts.configDir).map((p) => ({ path: p, claude: false })),
    ];
    this.files = [path.join(opts.home, '.claude', 'settings.json'), opts.policyFile].flatMap(both).map(comparable);
  }

  /** Why writing `absolutePath` is forbidden, or null. Give it the real path and the path as written (absolute). */
  reason(absolutePath: string): string | null {
    const folder = this.folders.find((f) => isInside(absolutePath, f.path, FS_CASE));
    if (folder?.claude === true) {
      return `the project's .claude/ folder (${folder.path}: Claude Code settings, hooks, agents, commands and skills) cannot be written by the agent`;
    }
    if (folder)
      return `Gatehouse's own settings, rules and trust files (${folder.path}) cannot be written by the agent`;
    if (this.files.includes(comparable(path.resolve(absolutePath)))) {
      return `${path.basename(path.dirname(absolutePath))}/${path.basename(absolutePath)} holds permission rules Gatehouse reads: the agent cannot write it`;
    }
    return null;
  }
}
