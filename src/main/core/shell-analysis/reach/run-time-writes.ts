import { copyPlan } from '../programs/program-files';
import { below, longPrefix, optionValue, type RunTimeReach } from './run-time-reach';
import { archiveReaches } from './run-time-writes-archives';
import { gitReaches } from './run-time-writes-git';
import { packageReaches } from './run-time-writes-packages';
import type { SimpleCommand } from '../types';

export type { RunTimeReach } from './run-time-reach';

/**
 * Commands whose write targets are only known when they run (contract "Assurance: Run-time write targets"): an
 * archive, a commit, a patch, a package or a remote folder decides which files appear. What the text shows is the
 * folder they write into, their *reach*: everything under it may be written (and wherever a symbolic link in it
 * leads). The engine asks, in every mode and whatever the rules or hooks say, when a reach includes a
 * self-protected place (.gatehouse/, .claude/, .git/hooks/, .git/config). A closed table, one entry per program;
 * the folder each entry reaches is the one it writes into: the working directory, a `-C`/`-d`/`--directory`
 * value, the destination operand, or the work tree of the repository.
 */

/** A word the shell expands (a glob, a variable): the name it gives a copy is only known at run time. */
function expands(cmd: SimpleCommand, s: { value: string; index: number }): boolean {
  return cmd.argvDynamic?.[s.index] === true || /[$`*?[]/.test(s.value);
}

function basename(p: string): string {
  const trimmed = p.replace(/\/+$/, '');
  return trimmed.split('/').pop() ?? '';
}

/** cp, mv, install, ln: each source lands at DEST/name when DEST is a folder (`cp -r x/. .` writes DEST itself). */
function copyReaches(cmd: SimpleCommand): RunTimeReach[] {
  const plan = copyPlan(cmd);
  if (plan === null || plan.dest === null) return [];
  const dest = plan.dest;
  const verb =
    cmd.name === 'ln' || cmd.name === 'link' ? 'makes links' : cmd.name === 'mv' ? 'moves files' : 'copies files';
  const why = `${cmd.name} ${verb} into ${dest.value}`;
  return plan.sources.map((s) => {
    const name = basename(s.value);
    const whole = plan.intoDirectory === false || s.value.endsWith('/.') || expands(cmd, s);
    if (whole || name === '' || name === '.' || name === '..') return below(dest.value, dest.index, why);
    return { value: dest.value, index: dest.index, scope: 'into' as const, name, why };
  });
}

/** `host:path`, `user@host:path`, `rsync://...`: not a local file. */
function isRemote(operand: string): boolean {
  return /^[a-z]+:\/\//i.test(operand) || /^[^/]*:/.test(operand);
}

/** rsync and scp: the destination; a source's name inside it, unless rsync copies a folder's contents (`src/`). */
function remoteCopyReaches(cmd: SimpleCommand): RunTimeReach[] {
  const valued = cmd.name === 'rsync' ? /^-[eBfTM]$/ : /^-[FiloPScJDX]$/;
  const ops: { value: string; index: number }[] = [];
  let relative = false;
  for (let i = 1; i < cmd.argv.length; i++) {
    const a = cmd.argv[i] as string;
    if (a === '--') {
      cmd.argv.slice(i + 1).forEach((value, k) => ops.push({ value, index: i + 1 + k }));
      break;
    }
    if (a.startsWith('--')) {
      if (longPrefix(a, '--relative', 3)) relative = true;
      if (
        !a.includes('=') &&
        /^--(rsh|filter|exclude|include|files-from|exclude-from|include-from|chmod|chown|rsync-path|password-file|partial-dir|temp-dir|backup-dir|compare-dest|copy-dest|link-dest|log-file|suffix|out-format)$/.test(
          a,
        )
      )
        i++;
      continue;
    }
    if (a.startsWith('-') && a !== '-') {
      if (cmd.name === 'rsync' && /^-[a-zA-Z]*R/.test(a)) relative = true;
      if (valued.test(a.slice(0, 2)) && a.length === 2) i++;
      continue;
    }
    ops.push({ value: a, index: i });
  }
  const dest = ops.pop();
  if (dest === undefined || ops.length === 0 || isRemote(dest.value)) return [];
  const why = `${cmd.name} copies files into ${dest.value}`;
  return ops.map((s) => {
    const name = basename(s.value.replace(/^[^/]*:/, ''));
    const contents = cmd.name === 'rsync' && s.value.endsWith('/');
    const whole = relative || contents || isRemote(s.value) || expands(cmd, s);
    if (whole || name === '' || name === '.' || name === '..') return below(dest.value, dest.index, why);
    return { value: dest.value, index: dest.index, scope: 'into' as const, name, why };
  });
}

/** patch: the files a patch names, under `-d DIR` or the working directory. */
function patchReaches(cmd: SimpleCommand): RunTimeReach[] {
  if (cmd.argv.includes('--dry-run') || cmd.argv.includes('-C') || cmd.argv.includes('--check')) return [];
  const why = 'patch writes the files the patch names';
  for (let i = 1; i < cmd.argv.length; i++) {
    const a = cmd.argv[i] as string;
    if (a === '-d' && cmd.argv[i + 1] !== undefined) return [below(cmd.argv[i + 1] as string, i + 1, why)];
    if (a.startsWith('-d') && a.length > 2 && !a.startsWith('--')) return [below(a.slice(2), i, why)];
    if (longPrefix(a, '--directory', 3)) {
      const v = optionValue(cmd.argv, i, false);
      if (v !== null) return [below(v.value, v.index, why)];
    }
  }
  return [below('.', -1, why)];
}

/** wget -r/-m/-p: the files the server links to, named by their URLs, under -P DIR or the working directory. */
function wgetReaches(cmd: SimpleCommand): RunTimeReach[] {
  const recursive = cmd.argv.some(
    (a) => /^-[a-zA-Z]*[rmp]/.test(a) || /^--(recursive|mirror|page-requisites)$/.test(a),
  );
  if (!recursive) return [];
  const why = "wget -r writes files named by the server's links";
  for (let i = 1; i < cmd.argv.length; i++) {
    const a = cmd.argv[i] as string;
    if (a === '-P' && cmd.argv[i + 1] !== undefined) return [below(cmd.argv[i + 1] as string, i + 1, why)];
    if (a.startsWith('--directory-prefix=')) return [below(a.slice(19), i, why)];
  }
  return [below('.', -1, why)];
}

/** svn/hg: a checkout or clone writes its destination; an update writes the working copy. */
function vcsReaches(cmd: SimpleCommand): RunTimeReach[] {
  const ops = cmd.argv.map((value, index) => ({ value, index })).filter((o) => o.index > 0 && !o.value.startsWith('-'));
  const sub = ops[0]?.value ?? '';
  const why = `${cmd.name} ${sub} writes files of the repository's choosing`;
  const marker = cmd.name === 'hg' ? '.hg' : '.svn';
  const clone = cmd.name === 'hg' ? ['clone'] : ['checkout', 'co', 'export'];
  if (clone.includes(sub)) {
    const dest = ops[2];
    const url = ops[1]?.value ?? '';
    const name = url.replace(/\/+$/, '').split('/').pop() ?? '';
    if (dest !== undefined) return [below(dest.value, dest.index, why)];
    return [below(name === '' ? '.' : name, -1, why)];
  }
  const updates =
    cmd.name === 'hg'
      ? 'update up checkout co pull revert import merge unshelve shelve rebase graft backout histedit strip'
      : 'update up switch sw merge revert patch resolve cleanup';
  return updates.split(' ').includes(sub) ? [{ value: '.', index: -1, scope: 'work-tree', marker, why }] : [];
}

/** Tools that install git hooks or point git at hook folders. */
function hookInstallerReaches(cmd: SimpleCommand): RunTimeReach[] | null {
  const sub = cmd.argv[1];
  const hooks = (why: string): RunTimeReach[] => [
    { value: '.', index: -1, scope: 'git-hooks', why },
    { value: '.', index: -1, scope: 'git-config', why },
  ];
  switch (cmd.name) {
    case 'pre-commit':
      return sub === 'install' || sub === 'init-templatedir' ? hooks('pre-commit install writes git hooks') : [];
    case 'lefthook':
      return sub === 'install' || sub === 'add' ? hooks('lefthook install writes git hooks') : [];
    case 'husky':
      return sub === undefined || sub === 'install' || sub === 'init' || !sub.startsWith('-')
        ? hooks('husky sets core.hooksPath')
        : [];
    case 'overcommit':
      return cmd.argv.includes('--install') ? hooks('overcommit --install writes git hooks') : [];
    case 'simple-git-hooks':
      return hooks('simple-git-hooks writes git hooks');
    case 'git-lfs':
      return sub === 'install' || sub === 'update' ? hooks('git lfs install writes git hooks') : [];
    default:
      return null;
  }
}

/** Every program the table knows: with arguments only the run supplies (`xargs`), any of them may write anywhere. */
const TABLE = new Set(
  `git tar bsdtar gtar unzip 7z 7za 7zr 7zz unrar rar cpio cp mv install ln link rsync scp patch wget svn hg ar jar pax
   unsquashfs dpkg-deb dpkg gem ditto pre-commit lefthook husky overcommit simple-git-hooks git-lfs npm pnpm yarn bun
   pip pip3`
    .split(/\s+/)
    .filter(Boolean),
);

export function isRunTimeWriter(name: string): boolean {
  return TABLE.has(name) || /^pip3\.\d+$/.test(name);
}

/** Where `cmd` writes files the text does not name (see the module comment); [] for any other program. */
export function runTimeReaches(cmd: SimpleCommand): RunTimeReach[] {
  switch (cmd.name) {
    case 'git':
      return gitReaches(cmd);
    case 'cp':
    case 'mv':
    case 'install':
    case 'ln':
    case 'link':
      return copyReaches(cmd);
    case 'rsync':
    case 'scp':
      return remoteCopyReaches(cmd);
    case 'patch':
      return patchReaches(cmd);
    case 'wget':
      return wgetReaches(cmd);
    case 'svn':
    case 'hg':
      return vcsReaches(cmd);
    default:
      return archiveReaches(cmd) ?? hookInstallerReaches(cmd) ?? packageReaches(cmd);
  }
}
