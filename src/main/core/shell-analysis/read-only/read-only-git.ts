import { parseOptions, type OptionSpec } from '../programs/options';
import { lazyOptions, type TablePaths } from '../programs/command-spec';
import type { SimpleCommand } from '../types';

/**
 * `git` is read-only for the subcommands that only look (status, diff, log, show, branch listing, rev-parse,
 * ls-files, blame...), each with a closed list of safe options (contract "Assurance"). Options that run programs
 * (`-c`, `--ext-diff`, `--textconv`, `--filters`, `-p`/`--paginate`, `--exec-path`) or write files (`--output`)
 * are never listed. Every operand after the subcommand is returned as a path to confine: revisions are relative
 * names that land inside the project, and `git diff --no-index /a /b` really reads those files. In a project
 * that is not trusted git is never read-only (its `.git/config` can run programs): that is decided by the engine.
 */

/** Options shared by the commands that show diffs (diff, log -p, show). */
const DIFF_OPTIONS = `-p -u -s -U= -z -w -b -a -R -B? -M? -C? -D -l= -S= -G= -O=file -W
  --patch --no-patch --unified= --raw --patch-with-raw --stat? --compact-summary --numstat --shortstat --dirstat?
  --cumulative --dirstat-by-file? --summary --patch-with-stat --name-only --name-status --submodule? --color?
  --no-color --color-moved? --no-color-moved --color-moved-ws= --no-color-moved-ws --word-diff? --word-diff-regex=
  --color-words? --no-renames --rename-empty --no-rename-empty --check --ws-error-highlight= --full-index --binary
  --abbrev? --break-rewrites? --find-renames? --find-copies? --find-copies-harder --irreversible-delete
  --diff-algorithm= --minimal --patience --histogram --anchored= --diff-filter= --find-object= --pickaxe-all
  --pickaxe-regex --skip-to= --rotate-to= --text --ignore-cr-at-eol --ignore-space-at-eol --ignore-space-change
  --ignore-all-space --ignore-blank-lines --ignore-matching-lines= --inter-hunk-context= --function-context
  --exit-code --quiet --no-ext-diff --no-textconv --ignore-submodules? --src-prefix= --dst-prefix= --no-prefix
  --default-prefix --line-prefix= --ita-invisible-in-index --ita-visible-in-index --relative? --no-relative
  --output-indicator-new= --output-indicator-old= --output-indicator-context= --indent-heuristic
  --no-indent-heuristic --no-stat`;

/** Options of the commands that walk history (log, shortlog, show). */
const REVISION_OPTIONS = `-n= -i -E -F -P -g -L= --max-count= --skip= --since= --after= --until= --before= --author=
  --committer= --grep-reflog= --grep= --all-match --invert-grep --regexp-ignore-case --basic-regexp --extended-regexp
  --fixed-strings --perl-regexp --remove-empty --merges --no-merges --min-parents= --max-parents= --no-min-parents
  --no-max-parents --first-parent --exclude-first-parent-only --not --all --branches? --tags? --remotes? --glob=
  --exclude= --reflog --alternate-refs --single-worktree --ignore-missing --bisect --merge --boundary
  --simplify-by-decoration --show-pulls --full-history --dense --sparse --simplify-merges --ancestry-path?
  --date-order --author-date-order --topo-order --reverse --walk-reflogs --cherry-mark --cherry-pick --left-only
  --right-only --cherry --left-right --graph --show-linear-break? --oneline --pretty? --format= --abbrev-commit
  --no-abbrev-commit --encoding= --expand-tabs? --no-expand-tabs --notes? --no-notes --show-notes? --show-signature
  --relative-date --date= --parents --children --decorate? --no-decorate --decorate-refs= --decorate-refs-exclude=
  --source --use-mailmap --no-use-mailmap --mailmap --no-mailmap --log-size --follow --no-follow --clear-decorations
  --full-diff -m -c --cc --dd --remerge-diff --diff-merges= --no-diff-merges --combined-all-paths -t
  --root --no-walk? --do-walk --in-commit-order --count`;

/** Each list is parsed when first asked for (a one-shot check looks at one subcommand, if any). */
const SUBCOMMANDS = new Map<string, () => OptionSpec>([
  [
    'status',
    lazyOptions(`-s -b -v -u? -z --short --branch --porcelain? --long --verbose --show-stash --ahead-behind --no-ahead-behind
      --untracked-files? --ignored? --ignore-submodules? --column? --no-column --renames --no-renames --find-renames?
      --no-optional-locks`),
  ],
  ['diff', lazyOptions(`${DIFF_OPTIONS} --cached --staged --merge-base --no-index -1 -2 -3 --base --ours --theirs -0`)],
  ['log', lazyOptions(`${DIFF_OPTIONS} ${REVISION_OPTIONS}`, true)],
  ['show', lazyOptions(`${DIFF_OPTIONS} ${REVISION_OPTIONS}`, true)],
  [
    'shortlog',
    lazyOptions(
      `-n -s -e -c -w? --numbered --summary --email --committer --format= --group= ${REVISION_OPTIONS}`,
      true,
    ),
  ],
  [
    'blame',
    lazyOptions(`-b -l -t -s -e -w -p -c -f -n -M? -C? -L= -S=file --root --show-stats --score-debug --show-name
      --show-number --show-email --porcelain --line-porcelain --incremental --encoding= --contents=file --date=
      --progress --no-progress --reverse= --first-parent --abbrev? --ignore-rev= --ignore-revs-file=file
      --color-lines --color-by-age --minimal`),
  ],
  [
    'rev-parse',
    lazyOptions(`-q --verify --quiet --short? --abbrev-ref? --symbolic --symbolic-full-name --all --branches? --tags?
      --remotes? --glob= --exclude= --disambiguate= --show-toplevel --show-prefix --show-cdup --show-superproject-working-tree
      --show-object-format? --show-ref-format --git-dir --absolute-git-dir --git-common-dir --git-path= --is-inside-git-dir
      --is-inside-work-tree --is-bare-repository --is-shallow-repository --shared-index-path --local-env-vars
      --since= --after= --until= --before= --default= --prefix= --revs-only --no-revs --flags --no-flags --not
      --sq --sq-quote --path-format= --resolve-git-dir=`),
  ],
  [
    'ls-files',
    lazyOptions(`-c -d -m -o -i -s -u -k -z -t -v -f -x= -X=file --cached --deleted --modified --others --ignored --stage
      --unmerged --killed --directory --no-empty-directory --eol --deduplicate --exclude= --exclude-from=file
      --exclude-per-directory= --exclude-standard --error-unmatch --with-tree= --full-name --recurse-submodules
      --abbrev? --debug --sparse --format= --resolve-undo`),
  ],
  [
    'ls-tree',
    lazyOptions(
      '-d -r -t -l -z --long --name-only --name-status --object-only --full-name --full-tree --abbrev? --format=',
    ),
  ],
  [
    'describe',
    lazyOptions(`--dirty? --broken? --all --tags --contains --abbrev= --candidates= --exact-match --debug --long --match=
      --exclude= --always --first-parent`),
  ],
  // `cat-file --textconv` and `--filters` run programs from the configuration: not listed
  [
    'cat-file',
    lazyOptions(
      '-t -s -e -p --batch? --batch-check? --batch-command? --batch-all-objects --buffer --unordered --allow-unknown-type --follow-symlinks -Z --use-mailmap --no-use-mailmap',
    ),
  ],
  [
    'branch',
    lazyOptions(`-a -r -v -l --all --remotes --verbose --list --show-current --merged? --no-merged? --contains?
      --no-contains? --sort= --format= --color? --no-color --column? --no-column --points-at= --ignore-case --abbrev=
      --no-abbrev`),
  ],
  ['remote', lazyOptions('-v --verbose')],
  [
    'tag',
    lazyOptions(
      '-l -n? --list --sort= --contains? --no-contains? --points-at= --merged? --no-merged? --format= --color? --column? --no-column --ignore-case',
    ),
  ],
  ['stash', lazyOptions(`${DIFF_OPTIONS} ${REVISION_OPTIONS}`, true)],
  ['version', lazyOptions('--build-options')],
]);

/** The subcommands' operands are only listed for these; branch/tag/remote/stash operands are names or patterns. */
const LISTING = new Set(['branch', 'tag', 'remote', 'stash']);

/** Global options that read (or point git at) a folder: returned as paths to confine. */
function globalOptions(argv: string[]): { sub: number; paths: { value: string; index: number }[] } | null {
  const paths: { value: string; index: number }[] = [];
  let i = 1;
  while (i < argv.length) {
    const a = argv[i] as string;
    if (!a.startsWith('-')) break;
    if (a === '-C') {
      // the walker makes DIR the command's working directory (directory-options.ts): judged as its place
      if (argv[i + 1] === undefined) return null;
      i += 2;
      continue;
    }
    const eq = /^--(git-dir|work-tree|namespace)=(.*)$/.exec(a);
    if (eq !== null) {
      if (eq[1] !== 'namespace') paths.push({ value: eq[2] as string, index: i });
      i++;
      continue;
    }
    if (/^--(git-dir|work-tree|namespace)$/.test(a)) {
      const v = argv[i + 1];
      if (v === undefined) return null;
      if (a !== '--namespace') paths.push({ value: v, index: i + 1 });
      i += 2;
      continue;
    }
    // `-c`, `--config-env`, `--exec-path`, `-p`/`--paginate` (runs a pager) and anything unknown: not read-only
    if (
      /^(-P|--(no-pager|no-replace-objects|bare|literal-pathspecs|no-optional-locks|glob-pathspecs|noglob-pathspecs|icase-pathspecs|no-lazy-fetch|no-advice))$/.test(
        a,
      )
    ) {
      i++;
      continue;
    }
    return null;
  }
  return { sub: i, paths };
}

/** Listing forms only: `git branch -d x`, `git tag v1`, `git remote add`, `git stash pop` change the repository. */
function listingAllowed(sub: string, operands: string[], flags: string[]): boolean {
  switch (sub) {
    case 'branch':
    case 'tag':
      return (
        operands.length === 0 || flags.some((f) => f === '-l' || f === '--list' || (sub === 'tag' && /^-n/.test(f)))
      );
    case 'remote':
      return operands.length === 0;
    case 'stash':
      return operands[0] === 'list' || operands[0] === 'show';
    default:
      return true;
  }
}

export function gitReadOnlyPaths(cmd: SimpleCommand): TablePaths | null {
  const argv = cmd.argv;
  if (argv.length === 2 && argv[1] === '--version') return { paths: [], variadic: new Set() };
  const g = globalOptions(argv);
  if (g === null) return null;
  const sub = argv[g.sub];
  const spec = sub === undefined ? undefined : SUBCOMMANDS.get(sub)?.();
  if (sub === undefined || spec === undefined) return null;
  const parsed = parseOptions(argv, spec, g.sub + 1);
  if (parsed.unknown.length > 0) return null;
  const operands = parsed.operands.map((o) => o.value);
  if (!listingAllowed(sub, operands, parsed.flags)) return null;
  // `git stash show -p` takes diff options; `git stash list` log options: both only look
  // revisions and paths take any number of words; an option's value (`-C DIR`, `-O FILE`) is one
  return {
    paths: [...g.paths, ...parsed.files, ...(LISTING.has(sub) ? [] : parsed.operands)],
    variadic: new Set(parsed.operands.map((o) => o.index)),
  };
}
