import type { CommandJudge, Place } from './command-facts';
import { isRunTimeWriter, runTimeReaches, type RunTimeReach } from '../shell-analysis/reach/run-time-writes';
import type { CommandAnalysis, SimpleCommand } from '../shell-analysis/types';
import { judgePath, type JudgedPath } from '../paths/judged-path';
import type { PathConfinement } from '../paths/path-confinement';

/**
 * Where a command's run-time writes land (contract "Assurance: Run-time write targets"), judged like any path: from
 * the directory the command runs in, through symbolic links. The reach of a command whose arguments or environment
 * are only known when it runs (`... | xargs tar`, `TAR_OPTIONS=... tar -x`) is unknown: it may be anywhere.
 */
export interface CommandReach {
  /** The folder (or file) reached, with everything below it; `unknown` when the text cannot tell where it is. */
  path: JudgedPath;
  /** What the command does there, for the person. */
  why: string;
  /** The program follows symbolic links it finds there (archives, copies): where they lead is reached too. */
  followsLinks: boolean;
}

/** Variables that change which program runs or which configuration any program reads (so where it writes). */
const GENERAL_VARIABLE =
  /^(PATH|HOME|XDG_[A-Z_]+|LD_[A-Z_]+|DYLD_[A-Z_]+|BASH_ENV|ENV|IFS|CDPATH|PWD|OLDPWD|BASH_FUNC_.*)$/;

/** The variables each program reads its options or its target folders from (`TAR_OPTIONS=-C.claude tar -x`). */
const PROGRAM_VARIABLES: Record<string, RegExp> = {
  git: /^GIT_/,
  tar: /^TAR_/,
  bsdtar: /^TAR_/,
  gtar: /^TAR_/,
  unzip: /^UNZIP/,
  npm: /^npm_config_/i,
  pnpm: /^(npm_config_|PNPM_)/i,
  yarn: /^(npm_config_|YARN_)/i,
  bun: /^(npm_config_|BUN_)/i,
  pip: /^PIP_/,
  pip3: /^PIP_/,
  rsync: /^RSYNC_/,
  patch: /^(PATCH_|SIMPLE_BACKUP_SUFFIX|VERSION_CONTROL|POSIXLY_CORRECT)/,
  cp: /^(SIMPLE_BACKUP_SUFFIX|VERSION_CONTROL)$/,
  mv: /^(SIMPLE_BACKUP_SUFFIX|VERSION_CONTROL)$/,
  svn: /^SVN_/,
  hg: /^HG/,
  wget: /^WGETRC$/,
};

function assignedName(word: string): string | null {
  return /^([A-Za-z_][A-Za-z0-9_]*)(\[[^\]]*\])?\+?=/.exec(word)?.[1] ?? null;
}

/**
 * A variable that can move where `cmd` writes is set for it: on the command, through a wrapper (`env X=1`), or
 * exported earlier in the script. Other assignments (`NODE_ENV=production npm ci`) leave its reach as written.
 */
function environmentChanged(cmd: SimpleCommand, analysis: CommandAnalysis): boolean {
  const own = PROGRAM_VARIABLES[cmd.name] ?? /^$/;
  const moves = (name: string | null): boolean => name !== null && (GENERAL_VARIABLE.test(name) || own.test(name));
  const wrapperWords = cmd.words.slice(0, Math.max(0, cmd.words.length - cmd.argv.length));
  if ([...cmd.assignments, ...wrapperWords].some((w) => moves(assignedName(w)))) return true;
  // `export TAR_OPTIONS=...; tar -x`, `source env.sh`: the environment of every later command of the script
  return analysis.commands.some(
    (c) =>
      c.name === 'source' ||
      c.name === '.' ||
      (['export', 'declare', 'typeset', 'readonly', 'local'].includes(c.name) &&
        c.argv.slice(1).some((w) => moves(assignedName(w)))),
  );
}

/** The nearest folder at or above `real` holding `marker` (a repository's top), or `real` when there is none. */
function repositoryTop(confinement: PathConfinement, real: string, marker: string): string {
  const sys = confinement.sys;
  for (let dir = real; ; dir = sys.dirname(dir)) {
    if (confinement.fs.lstat(sys.join(dir, marker)) !== null) return dir;
    if (sys.dirname(dir) === dir) return real;
  }
}

function argDynamic(cmd: SimpleCommand, index: number): boolean {
  return index >= 0 && (cmd.argvDynamic?.[index] === true || /[$`]/.test(cmd.argv[index] ?? ''));
}

function resolve(
  r: RunTimeReach,
  cmd: SimpleCommand,
  place: Place,
  judge: CommandJudge,
  c: PathConfinement,
): JudgedPath | null {
  const at = judge.judge(r.value, place, argDynamic(cmd, r.index));
  if (at.unknown) return at;
  switch (r.scope) {
    case 'below':
      return at;
    case 'into': {
      // not a folder: the copy is DEST itself, a write the command shows (judged with the other writes)
      if (!c.isDirectory(at.real) || r.name === undefined) return null;
      return judge.judge(`${r.value.replace(/\/+$/, '')}/${r.name}`, place, argDynamic(cmd, r.index));
    }
    case 'work-tree':
      return judgePath(c, repositoryTop(c, at.real, r.marker ?? '.git'));
    case 'git-config':
    case 'git-hooks': {
      const top = repositoryTop(c, at.real, '.git');
      const gitDir = c.sys.join(top, '.git');
      // a `.git` file points at the real git dir elsewhere: the whole `.git` entry stands for it
      if (c.fs.lstat(gitDir)?.isDirectory() !== true) return judgePath(c, gitDir);
      return judgePath(c, c.sys.join(gitDir, r.scope === 'git-config' ? 'config' : 'hooks'));
    }
  }
}

/** The judged reaches of one simple command (none for programs outside the table). */
export function judgeReaches(
  cmd: SimpleCommand,
  analysis: CommandAnalysis,
  place: Place,
  judge: CommandJudge,
  confinement: PathConfinement,
): CommandReach[] {
  if (!isRunTimeWriter(cmd.name)) return [];
  const reaches = runTimeReaches(cmd);
  const unknownWhy = (why: string): CommandReach => ({
    path: judge.judge(`(where ${cmd.name} writes)`, place, true),
    why,
    followsLinks: true,
  });
  // Arguments read from the input at run time can turn `tar -t` into `tar -x -C anywhere`.
  if (cmd.argsFromInput === true && cmd.inputArgsKnown !== true)
    return [unknownWhy(`${cmd.name} gets more arguments from its input when it runs`)];
  if (reaches.length === 0) return [];
  if (environmentChanged(cmd, analysis))
    return [unknownWhy(`${cmd.name} runs with variables set that can change where it writes`)];
  return reaches.flatMap((r) => {
    const at = resolve(r, cmd, place, judge, confinement);
    if (at === null) return [];
    const followsLinks = (r.scope === 'below' || r.scope === 'into') && cmd.name !== 'git' && r.followsLinks !== false;
    return [{ path: at, why: r.why, followsLinks }];
  });
}
