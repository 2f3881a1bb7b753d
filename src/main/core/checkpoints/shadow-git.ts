import { execFile } from 'node:child_process';
import path from 'node:path';
import { writeFileAtomicAsync } from '../fs/atomic-write';

/**
 * Git, run on a project's files with a repository of Gatehouse's own (the "shadow" repository under the user's config
 * folder): the project's own `.git` is never read or written. Hardened so that nothing in the project or in the
 * user's git configuration can run code or change what is stored: no system or global config, no hooks, no
 * fsmonitor, no filters (their drivers would have to be in our config, which has none), no line-ending conversion,
 * no signing, no pager, no prompts.
 */
export interface ShadowGit {
  /** The shadow repository (GIT_DIR). */
  gitDir: string;
  /** The project (GIT_WORK_TREE). */
  workTree: string;
}

class GitError extends Error {
  constructor(
    message: string,
    readonly code: 'GIT_MISSING' | 'GIT_FAILED',
  ) {
    super(message);
  }
}

const HARDENING = [
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'core.autocrlf=false',
  '-c',
  'core.safecrlf=false',
  '-c',
  'core.symlinks=true',
  '-c',
  'core.quotepath=off',
  '-c',
  'commit.gpgsign=false',
  '-c',
  'gc.auto=0',
  '-c',
  'user.name=Gatehouse checkpoints',
  '-c',
  'user.email=checkpoints@gatehouse.invalid',
];

function gitEnv(repo: ShadowGit, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  // Only what git needs to run: never the agent's or the project's variables (GIT_* from outside could redirect it).
  for (const key of ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TMPDIR', 'SYSTEMROOT']) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  return {
    ...env,
    GIT_DIR: repo.gitDir,
    GIT_WORK_TREE: repo.workTree,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_PAGER: 'cat',
    ...extra,
  };
}

export interface GitRunOptions {
  /** Extra environment (GIT_INDEX_FILE for a scratch index). */
  env?: Record<string, string>;
  /** Written to git's stdin. */
  input?: string;
  /** Exit codes that are answers, not failures (`git diff --quiet` exits 1 for "differs"). */
  okCodes?: readonly number[];
}

export interface GitResult {
  stdout: string;
  code: number;
}

/** Runs `git ARGS` on the shadow repository, asynchronously. A missing git binary is GIT_MISSING. */
export function runGit(repo: ShadowGit, args: readonly string[], options: GitRunOptions = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      'git',
      [...HARDENING, ...args],
      {
        cwd: repo.workTree,
        env: gitEnv(repo, options.env ?? {}),
        maxBuffer: 256 * 1024 * 1024,
        encoding: 'utf8',
        windowsHide: true,
      },
      (err, stdout, stderr) => {
        if (!err) return resolve({ stdout, code: 0 });
        const e = err as NodeJS.ErrnoException & { code?: unknown };
        if (e.code === 'ENOENT')
          return reject(new GitError('git is not installed (checkpoints need the git command)', 'GIT_MISSING'));
        const code = typeof e.code === 'number' ? e.code : -1;
        if (options.okCodes?.includes(code)) return resolve({ stdout, code });
        const detail = stderr.trim().split('\n').slice(-3).join(' | ') || e.message;
        reject(new GitError(`git ${args[0] ?? ''} failed: ${detail}`, 'GIT_FAILED'));
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
    else child.stdin?.end();
  });
}

/** NUL-separated git output as a list. */
export function nulList(text: string): string[] {
  return text.split('\0').filter((s) => s.length > 0);
}

const CHECKPOINT_ID = /^[0-9a-f]{12}$/;
const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * Points `refs/checkpoints/ID` at `commit`, as `git update-ref` does for a new ref: a loose ref file holding the
 * object id, written whole (temp file, rename). Written here rather than by starting git: starting a process forks
 * this one, on its thread, at a cost that grows with its memory, and afterwards each page this process writes faults
 * once more (`npm run bench -- --only machine` measures both); a prompt's checkpoint started nine. Only for a new ref
 * of an id the store made (a deletion, which may find the ref packed, stays git's).
 */
export async function writeCheckpointRef(
  repo: ShadowGit,
  id: string,
  commit: string,
  namespace: CheckpointRefs = 'checkpoints',
): Promise<void> {
  if (!CHECKPOINT_ID.test(id)) throw new GitError(`not a checkpoint id: ${JSON.stringify(id)}`, 'GIT_FAILED');
  if (!OBJECT_ID.test(commit)) {
    const made = namespace === 'checkpoints' ? 'commit-tree gave no commit' : 'write-tree gave no tree';
    throw new GitError(`git ${made} id: ${JSON.stringify(commit)}`, 'GIT_FAILED');
  }
  await writeFileAtomicAsync(path.join(repo.gitDir, 'refs', namespace, id), `${commit}\n`, 0o644);
}

/**
 * `checkpoints/ID`: a checkpoint's commit; `checkpoint-after/ID`: the tree its run left, kept by a ref of its own so
 * that git's pruning of old checkpoints never removes it (an unreferenced tree would go with the next prune).
 */
export type CheckpointRefs = 'checkpoints' | 'checkpoint-after';
