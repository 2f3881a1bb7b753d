import { globBase } from '../../paths/judged-path';
import type { SimpleCommand } from '../types';
import type { RunTimeReach } from './run-time-reach';

/**
 * `git` subcommands whose writes are only known when they run (contract "Assurance: Run-time write targets"): a
 * checkout, merge or stash writes whatever files another commit holds, and a commit can hold anything (the agent can
 * build one with `git hash-object` and `git update-index` without touching a file). So their reach is the work tree
 * of the repository (everything in it, `.claude/` and `.gatehouse/` included), or only the paths a pathspec names
 * when it names ordinary paths. A closed table: a subcommand it does not know (an alias, a `git-foo` program on
 * PATH) may be anything, so it reaches the work tree too.
 */

/** Global options of git that take the next word as their value (unless attached with `=`). */
const VALUED_GLOBALS = new Set([
  '-C',
  '-c',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--config-env',
  '--super-prefix',
]);

/** Subcommands that never write the work tree, the git dir's config or its hooks. */
const NO_REACH = new Set(
  `status fetch push commit add branch tag blame annotate grep ls-files ls-remote ls-tree rev-parse
   rev-list describe shortlog reflog remote cat-file for-each-ref show-ref symbolic-ref update-ref update-index
   hash-object write-tree commit-tree mktree mktag merge-base name-rev notes count-objects fsck gc prune repack
   pack-refs verify-commit verify-tag verify-pack help version var check-ignore check-attr check-mailmap
   check-ref-format diff-tree diff-files diff-index range-diff whatchanged cherry column credential
   credential-cache credential-store show-branch maintenance hook interpret-trailers stripspace patch-id
   get-tar-commit-id send-pack fetch-pack index-pack unpack-objects pack-objects prune-packed multi-pack-index
   commit-graph replace fast-export request-pull send-email difftool`
    .split(/\s+/)
    .filter(Boolean),
);

/** Subcommands that rewrite the work tree with content of git's choosing (another commit, a patch, a stash...). */
const WHOLE_TREE = new Set(
  `merge pull rebase cherry-pick revert am filter-branch filter-repo mergetool rerere`.split(/\s+/).filter(Boolean),
);

interface GitInvocation {
  /** Where git runs: the `-C` folders joined ('.' when none). */
  dir: string;
  /** `--work-tree` when given: the work tree's top, as written (relative to `dir`). */
  workTree: string | null;
  /** `-c`, `--config-env` or `--git-dir` were given: git's configuration is not the repository's. */
  reconfigured: boolean;
  sub: string | null;
  /** The words after the subcommand, with their argv indexes. */
  args: { value: string; index: number }[];
}

function joinDir(dir: string, next: string): string {
  if (next.startsWith('/') || next.startsWith('~')) return next;
  return dir === '.' ? next : `${dir}/${next}`;
}

function parseGit(cmd: SimpleCommand): GitInvocation {
  let dir = '.';
  let workTree: string | null = null;
  let reconfigured = false;
  let i = 1;
  for (; i < cmd.argv.length; i++) {
    const a = cmd.argv[i] as string;
    if (!a.startsWith('-') || a === '-') break;
    const eq = a.indexOf('=');
    const name =
      a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a.startsWith('-C') || a.startsWith('-c') ? a.slice(0, 2) : a;
    let value: string | undefined;
    if (VALUED_GLOBALS.has(name)) {
      value =
        a.startsWith('--') && eq > 0
          ? a.slice(eq + 1)
          : a.length > 2 && !a.startsWith('--')
            ? a.slice(2)
            : cmd.argv[++i];
    }
    if (name === '-C' && value !== undefined && value !== '') dir = joinDir(dir, value);
    else if (name === '--work-tree' && value !== undefined) workTree = value;
    else if (name === '-c' || name === '--config-env' || name === '--git-dir') reconfigured = true;
  }
  const sub = cmd.argv[i] ?? null;
  const args = cmd.argv.slice(i + 1).map((value, k) => ({ value, index: i + 1 + k }));
  return { dir, workTree, reconfigured, sub, args };
}

/** Options of a subcommand that take the next word as their value (so it is not an operand). */
const VALUED = new Map<string, Set<string>>([
  ['checkout', new Set(['-b', '-B', '--orphan', '--conflict', '--pathspec-from-file'])],
  ['switch', new Set(['-c', '-C', '--create', '--force-create', '--orphan', '--conflict'])],
  ['restore', new Set(['-s', '--source', '--conflict', '--pathspec-from-file'])],
  ['stash', new Set(['-m', '--message', '--pathspec-from-file'])],
  ['rm', new Set(['--pathspec-from-file'])],
  ['checkout-index', new Set(['--prefix', '--stage'])],
  [
    'clone',
    new Set([
      '-o',
      '--origin',
      '-b',
      '--branch',
      '-u',
      '--upload-pack',
      '--reference',
      '--reference-if-able',
      '--separate-git-dir',
      '--depth',
      '--shallow-since',
      '--shallow-exclude',
      '-c',
      '--config',
      '-j',
      '--jobs',
      '--template',
      '--filter',
      '--bundle-uri',
      '--server-option',
      '--ref-format',
    ]),
  ],
  ['worktree', new Set(['-b', '-B', '--reason', '--orphan'])],
  ['submodule', new Set(['-b', '--branch', '--name', '--reference', '--depth', '-j', '--jobs'])],
  [
    'init',
    new Set([
      '--template',
      '--separate-git-dir',
      '-b',
      '--initial-branch',
      '--object-format',
      '--ref-format',
      '--shared',
    ]),
  ],
  ['config', new Set(['-f', '--file', '--blob', '--type', '--default', '--comment', '--value', '--url'])],
  ['format-patch', new Set(['-o', '--output-directory'])],
  ['archive', new Set(['-o', '--output', '--format', '--prefix', '--remote', '--exec'])],
  ['diff', new Set(['--output'])],
  ['log', new Set(['--output'])],
  ['show', new Set(['--output'])],
]);

interface SubArgs {
  flags: string[];
  /** Operands before `--` (or all of them when there is none). */
  operands: { value: string; index: number }[];
  /** Operands after `--`, or null when there was no `--`. */
  afterDashes: { value: string; index: number }[] | null;
  values: Map<string, string>;
}

function splitArgs(sub: string, args: GitInvocation['args']): SubArgs {
  const valued = VALUED.get(sub) ?? new Set<string>();
  const out: SubArgs = { flags: [], operands: [], afterDashes: null, values: new Map() };
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!;
    if (out.afterDashes !== null) out.afterDashes.push(a);
    else if (a.value === '--') out.afterDashes = [];
    else if (a.value.startsWith('-') && a.value !== '-') {
      out.flags.push(a.value);
      const eq = a.value.indexOf('=');
      const name = eq > 0 ? a.value.slice(0, eq) : a.value;
      if (eq > 0) out.values.set(name, a.value.slice(eq + 1));
      else if (valued.has(name) && args[k + 1] !== undefined) out.values.set(name, args[++k]!.value);
    } else out.operands.push(a);
  }
  return out;
}

const has = (s: SubArgs, ...names: string[]): boolean =>
  s.flags.some((f) =>
    names.some(
      (n) => f === n || f.startsWith(`${n}=`) || (/^-[a-zA-Z]$/.test(n) && /^-[a-zA-Z]+$/.test(f) && f.includes(n[1]!)),
    ),
  );

/** The reach of a pathspec: the literal folder it starts from, or the whole tree for magic (`:(top)`, `:/`). */
function pathspecReach(spec: { value: string; index: number }, dir: string, why: string): RunTimeReach {
  if (spec.value.startsWith(':')) return { value: dir, index: -1, scope: 'work-tree', why };
  const base = globBase(spec.value);
  return { value: joinDir(dir, base), index: /[*?[]/.test(spec.value) ? -1 : spec.index, scope: 'below', why };
}

/** The humanish name `git clone URL` gives its folder: the URL's last segment without `.git`. */
function cloneName(url: string): string | null {
  const trimmed = url
    .replace(/\/+$/, '')
    .replace(/\/\.git$/, '')
    .replace(/\.git$/, '')
    .replace(/\/+$/, '');
  const name = trimmed.split(/[/:]/).pop() ?? '';
  return name === '' || name === '.' || name === '..' ? null : name;
}

/** The reaches of one git invocation (see the module comment). */
export function gitReaches(cmd: SimpleCommand): RunTimeReach[] {
  const g = parseGit(cmd);
  const sub = g.sub;
  if (sub === null) return [];
  const tree = (why: string): RunTimeReach =>
    g.workTree === null
      ? { value: g.dir, index: -1, scope: 'work-tree', why }
      : { value: joinDir(g.dir, g.workTree), index: -1, scope: 'below', why };
  const config = (why: string): RunTimeReach => ({ value: g.dir, index: -1, scope: 'git-config', why });
  const hooks = (why: string): RunTimeReach => ({ value: g.dir, index: -1, scope: 'git-hooks', why });
  const s = splitArgs(sub, g.args);
  // `-c core.worktree=...` or `--git-dir` can put the work tree anywhere: then a pathspec's place is not known
  const paths = (specs: { value: string; index: number }[], why: string): RunTimeReach[] =>
    g.workTree !== null || g.reconfigured ? [tree(why)] : specs.map((p) => pathspecReach(p, g.dir, why));
  const w = `git ${sub}`;
  switch (sub) {
    case 'checkout': {
      const why = `${w} writes files of another commit`;
      if (has(s, '--pathspec-from-file') || has(s, '-p', '--patch')) return [tree(why)];
      if (s.afterDashes !== null) return s.afterDashes.length > 0 ? paths(s.afterDashes, why) : [tree(why)];
      // `git checkout`, `git checkout -b new`, `--detach`: HEAD's commit stays, nothing is written
      if (s.operands.length === 0 && !has(s, '-f', '--force', '-m', '--merge')) return [];
      return [tree(why)];
    }
    case 'switch': {
      const why = `${w} writes the files of another branch`;
      const creating =
        s.values.has('-c') || s.values.has('-C') || s.values.has('--create') || s.values.has('--force-create');
      if (
        (creating || s.values.has('--orphan')) &&
        s.operands.length === 0 &&
        !has(s, '-f', '--force', '--discard-changes')
      )
        return [];
      return [tree(why)];
    }
    case 'restore': {
      const why = `${w} writes files from another commit`;
      if (has(s, '-S', '--staged') && !has(s, '-W', '--worktree')) return [];
      if (has(s, '--pathspec-from-file') || has(s, '-p', '--patch')) return [tree(why)];
      const specs = [...s.operands, ...(s.afterDashes ?? [])];
      return specs.length > 0 ? paths(specs, why) : [tree(why)];
    }
    case 'reset':
      return has(s, '--hard', '--merge', '--keep') ? [tree(`${w} rewrites the work tree to another commit`)] : [];
    case 'stash': {
      const action = s.operands[0]?.value;
      const why = `${w} writes the files of a stash or of the last commit`;
      if (action === undefined || action === 'push' || action === 'save') {
        if (s.afterDashes !== null && s.afterDashes.length > 0 && !has(s, '-u', '--include-untracked', '-a', '--all'))
          return paths(s.afterDashes, why);
        return [tree(why)];
      }
      return ['list', 'show', 'drop', 'clear', 'create', 'store'].includes(action) ? [] : [tree(why)];
    }
    case 'rm':
    case 'mv': {
      if (sub === 'rm' && has(s, '--cached')) return [];
      if (has(s, '-n', '--dry-run')) return [];
      const why = `${w} deletes or moves files`;
      if (has(s, '--pathspec-from-file')) return [tree(why)];
      return paths([...s.operands, ...(s.afterDashes ?? [])], why);
    }
    case 'clean':
      return has(s, '-n', '--dry-run') ? [] : [tree(`${w} deletes untracked files`)];
    case 'apply': {
      const why = `${w} writes the files a patch names`;
      if (has(s, '--unsafe-paths')) return [{ value: '/', index: -1, scope: 'below', why }];
      if (has(s, '--cached')) return [];
      const onlyLooks = has(s, '--stat', '--numstat', '--summary', '--check') && !has(s, '--apply');
      return onlyLooks ? [] : [tree(why)];
    }
    case 'checkout-index': {
      const why = `${w} writes files from the index`;
      const prefix = s.values.get('--prefix');
      const out = [tree(why)];
      if (prefix !== undefined) {
        const folder = prefix.endsWith('/') ? prefix : prefix.replace(/[^/]*$/, '') || '.';
        out.push({ value: joinDir(g.dir, folder), index: -1, scope: 'below', why });
      }
      return out;
    }
    case 'read-tree':
      return has(s, '-u') ? [tree(`${w} -u writes the files of a tree`)] : [];
    case 'sparse-checkout':
      return s.operands[0]?.value === 'list'
        ? []
        : [tree(`${w} adds and removes work-tree files`), config(`${w} sets core.sparseCheckout`)];
    case 'bisect': {
      const action = s.operands[0]?.value;
      return ['log', 'visualize', 'view', 'terms', 'help'].includes(action ?? '')
        ? []
        : [tree(`${w} checks out other commits`)];
    }
    case 'clone': {
      const [url, dest] = s.operands.concat(s.afterDashes ?? []);
      const why = `${w} writes another repository's files`;
      const out: RunTimeReach[] = [];
      const target = dest?.value ?? (url === undefined ? null : cloneName(url.value));
      out.push({
        value: target === null ? g.dir : joinDir(g.dir, target),
        index: dest?.index ?? -1,
        scope: 'below',
        why,
      });
      const sep = s.values.get('--separate-git-dir');
      if (sep !== undefined) out.push({ value: joinDir(g.dir, sep), index: -1, scope: 'below', why });
      return out;
    }
    case 'worktree': {
      const action = s.operands[0]?.value ?? '';
      const count = action === 'add' || action === 'remove' ? 1 : action === 'move' ? 2 : 0;
      const why = `git worktree ${action} writes a work tree`;
      return s.operands
        .slice(1, 1 + count)
        .map((o) => ({ value: joinDir(g.dir, o.value), index: o.index, scope: 'below' as const, why }));
    }
    case 'submodule': {
      const action = s.operands[0]?.value ?? 'status';
      if (['status', 'summary', 'set-branch', 'set-url'].includes(action)) return [];
      const why = `git submodule ${action} writes submodules and copies their settings from .gitmodules`;
      return [tree(why), config(why)];
    }
    case 'config':
      return configWrites(s) ? [config(`${w} changes the repository's git configuration`)] : [];
    case 'init': {
      const dir = s.operands[0];
      const top = dir === undefined ? g.dir : joinDir(g.dir, dir.value);
      const index = dir?.index ?? -1;
      // hook templates of the caller's choosing land in the new repository's hooks
      if (s.values.has('--template') || s.values.has('--separate-git-dir') || g.reconfigured)
        return [{ value: top, index, scope: 'below', why: `${w} copies hook templates into the repository` }];
      // otherwise git's own files: only where the new .git lands matters (inside .claude/, say)
      return [
        { value: joinDir(top, '.git/(new repository)'), index, scope: 'below', why: `${w} creates a repository` },
      ];
    }
    case 'archive':
    case 'diff':
    case 'log':
    case 'show':
    case 'bundle': {
      const out = s.values.get('-o') ?? s.values.get('--output');
      const file = sub === 'bundle' && s.operands[0]?.value === 'create' ? s.operands[1] : undefined;
      const target = file?.value ?? (sub === 'archive' || sub !== 'bundle' ? out : undefined);
      return target === undefined
        ? []
        : [{ value: joinDir(g.dir, target), index: -1, scope: 'below', why: `${w} writes ${target}` }];
    }
    case 'lfs': {
      const action = s.operands[0]?.value;
      if (action === 'install' || action === 'update')
        return has(s, '--skip-repo')
          ? []
          : [hooks('git lfs install writes git hooks'), config('git lfs install sets filters')];
      return ['pull', 'checkout', 'migrate', 'smudge'].includes(action ?? '')
        ? [tree(`git lfs ${action} writes work-tree files`)]
        : [];
    }
    case 'format-patch': {
      // NNNN-subject.patch files: named by git, never a protected name, so only the folder matters
      const out = s.values.get('-o') ?? s.values.get('--output-directory') ?? '.';
      const why = `${w} writes patch files`;
      return [{ value: joinDir(joinDir(g.dir, out), '0001-(patch files).patch'), index: -1, scope: 'below', why }];
    }
    default:
      if (NO_REACH.has(sub)) return [];
      if (WHOLE_TREE.has(sub)) return [tree(`${w} writes files of git's choosing into the work tree`)];
      return [
        tree(
          `\`git ${sub}\` is not a subcommand Gatehouse knows (an alias or a git-${sub} program may write anything)`,
        ),
      ];
  }
}

/** `git config` writes the repository's configuration (not --global/--system/--file, not a read). */
function configWrites(s: SubArgs): boolean {
  if (has(s, '--global', '--system', '-f', '--file', '--blob')) return false;
  const action = s.operands[0]?.value;
  if (['get', 'list', 'get-urlmatch', 'get-color', 'get-colorbool'].includes(action ?? '') && s.flags.length >= 0)
    return false;
  if (['set', 'unset', 'rename-section', 'remove-section', 'edit'].includes(action ?? '')) return true;
  if (
    has(s, '--unset', '--unset-all', '--add', '--replace-all', '--rename-section', '--remove-section', '-e', '--edit')
  )
    return true;
  if (has(s, '-l', '--list', '--get', '--get-all', '--get-regexp', '--get-urlmatch', '--get-color', '--get-colorbool'))
    return false;
  return s.operands.length >= 2;
}
