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
  /** Everything a run-time writer may not reach (see `reachReason`), each with what it is for the person. */
  private readonly reachable: { path: string; what: string }[];

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
    const git = path.join(opts.projectRoot, '.git');
    const named: [string, string][] = [
      [path.join(opts.projectRoot, '.gatehouse'), '.gatehouse/'],
      [path.join(opts.projectRoot, '.claude'), '.claude/'],
      [path.join(git, 'hooks'), '.git/hooks/'],
      [path.join(git, 'config'), '.git/config'],
      [path.join(git, 'config.worktree'), '.git/config.worktree'],
      [opts.configDir, `Gatehouse's user config directory ${opts.configDir}`],
      [path.join(opts.home, '.claude', 'settings.json'), '~/.claude/settings.json'],
      [opts.policyFile, `the managed policy file ${opts.policyFile}`],
    ];
    this.reachable = named.flatMap(([p, what]) => both(p).map((form) => ({ path: form, what })));
  }

  /**
   * The protected places a write reaching `absolutePath` and everything below it would touch, named for the person
   * (`.claude/`, `.git/config`...): those inside it (`tar -x` in the project root reaches .claude/) and the one it
   * lies in (`git checkout -- .claude/settings.json`); empty when none. Self-protection for writes whose files are
   * only known at run time (contract "Run-time write targets"): the project's .git/hooks/ and .git/config count
   * here, because a write of git's or an archive's choosing there plants code that runs later.
   */
  reachedBy(absolutePath: string): string[] {
    const hits = this.reachable.filter(
      (r) => isInside(absolutePath, r.path, FS_CASE) || isInside(r.path, absolutePath, FS_CASE),
    );
    return [...new Set(hits.map((h) => h.what))];
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
