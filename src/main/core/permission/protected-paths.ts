import { HOST_PATHS, type PathSystem } from '../../../shared/node/platform-path';
import type { FsView } from '../paths/fs-view';
import { resolveRealPath } from '../paths/path-confinement';

/**
 * Self-protection (permission-model.md, hard checks): the agent may not write Gatehouse's own settings, rules or
 * trust files (`.gatehouse/**` and `.claude/**` in the project, the user config directory, the policy file) nor the
 * user's Claude Code settings files Gatehouse reads as rules. Compared by real path (and as written), so a symlink
 * does not help, and as the volume compares names (`.GATEHOUSE/` is `.gatehouse/` where it folds case).
 */
export class ProtectedPaths {
  private readonly folders: { path: string; claude: boolean }[];
  private readonly files: string[];
  /** Everything a run-time writer may not reach (see `reachReason`), each with what it is for the person. */
  private readonly reachable: { path: string; what: string }[];
  private readonly sys: PathSystem;

  constructor(opts: {
    projectRoot: string;
    configDir: string;
    home: string;
    policyFile: string;
    /** How paths are spelled and compared (default: this machine's). */
    sys?: PathSystem;
    /** How the disk is looked at (build it with `settle`, see fs-view.ts). */
    fs: FsView;
  }) {
    const sys = (this.sys = opts.sys ?? HOST_PATHS);
    const both = (p: string): string[] => [
      ...new Set([sys.resolve(p), resolveRealPath(p, opts.projectRoot, opts.home, opts.fs, sys)]),
    ];
    // The whole project .claude/ folder (contract "Assurance"): its settings are rules, its agents, commands and
    // skills grant tools. The user's own ~/.claude/settings.json is a file Gatehouse reads as rules.
    this.folders = [
      ...both(sys.join(opts.projectRoot, '.gatehouse')).map((p) => ({ path: p, claude: false })),
      ...both(sys.join(opts.projectRoot, '.claude')).map((p) => ({ path: p, claude: true })),
      ...both(opts.configDir).map((p) => ({ path: p, claude: false })),
    ];
    this.files = [sys.join(opts.home, '.claude', 'settings.json'), opts.policyFile]
      .flatMap(both)
      .map((p) => sys.key(p));
    const git = sys.join(opts.projectRoot, '.git');
    const named: [string, string][] = [
      [sys.join(opts.projectRoot, '.gatehouse'), '.gatehouse/'],
      [sys.join(opts.projectRoot, '.claude'), '.claude/'],
      [sys.join(git, 'hooks'), '.git/hooks/'],
      [sys.join(git, 'config'), '.git/config'],
      [sys.join(git, 'config.worktree'), '.git/config.worktree'],
      [opts.configDir, `Gatehouse's user config directory ${opts.configDir}`],
      [sys.join(opts.home, '.claude', 'settings.json'), '~/.claude/settings.json'],
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
      (r) => this.sys.isInside(absolutePath, r.path) || this.sys.isInside(r.path, absolutePath),
    );
    return [...new Set(hits.map((h) => h.what))];
  }

  /** Why writing `absolutePath` is forbidden, or null. Give it the real path and the path as written (absolute). */
  reason(absolutePath: string): string | null {
    const folder = this.folders.find((f) => this.sys.isInside(absolutePath, f.path));
    if (folder?.claude === true) {
      return `the project's .claude/ folder (${folder.path}: Claude Code settings, hooks, agents, commands and skills) cannot be written by the agent`;
    }
    if (folder)
      return `Gatehouse's own settings, rules and trust files (${folder.path}) cannot be written by the agent`;
    if (this.files.includes(this.sys.key(this.sys.resolve(absolutePath)))) {
      const sys = this.sys;
      return `${sys.basename(sys.dirname(absolutePath))}/${sys.basename(absolutePath)} holds permission rules Gatehouse reads: the agent cannot write it`;
    }
    return null;
  }
}
