import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommand } from '../../../../src/main/core/shell-analysis/analyze';
import { initShellParser } from '../../../../src/main/core/shell-analysis/parse/parser';
import { runTimeReaches } from '../../../../src/main/core/shell-analysis/reach/run-time-writes';

/** Contract "Assurance: Run-time write targets": the closed table of folders such commands reach. */
beforeAll(async () => {
  await initShellParser();
});

/** The reaches of the last simple command, as `scope:value` (`into:dest/name`). */
function reach(command: string): string[] {
  // the last command of the line (`curl ... | tar xz`), not one an option carries (`rsync -e ssh`, `git config
  // core.fsmonitor x`): a command of the line starts the line or follows `|`, `;` or `&`
  const cmd = analyzeCommand(command)
    .commands.filter((c) => {
      const at = command.lastIndexOf(c.text);
      return at === 0 || /[|;&]\s*$/.test(command.slice(0, at));
    })
    .at(-1);
  if (cmd === undefined) throw new Error(command);
  return runTimeReaches(cmd).map((r) => (r.scope === 'into' ? `into:${r.value}/${r.name}` : `${r.scope}:${r.value}`));
}

describe('git', () => {
  it('whole-tree operations reach the work tree', () => {
    for (const c of [
      'git checkout evil',
      'git checkout -',
      'git checkout -f',
      'git checkout -b feature evil',
      'git switch main',
      'git switch -c new origin/x',
      'git reset --hard',
      'git reset --keep HEAD~1',
      'git stash',
      'git stash -u',
      'git stash pop',
      'git stash apply stash@{1}',
      'git merge evil',
      'git pull',
      'git rebase main',
      'git cherry-pick abc',
      'git revert abc',
      'git am x.mbox',
      'git apply hook.patch',
      'git apply -R --index x.patch',
      'git clean -fdx',
      'git bisect start',
      'git checkout evil .', // no `--`: the operand may be a branch
      'git read-tree -u -m HEAD evil',
      'git sparse-checkout set src',
      'git co evil', // an alias: unknown subcommand
      'git submodule update --init',
    ])
      expect(reach(c), c).toContain('work-tree:.');
  });
  it('a pathspec reaches only what it names (from -C), magic and --pathspec-from-file reach the tree', () => {
    expect(reach('git checkout -- file.txt')).toEqual(['below:file.txt']);
    expect(reach('git checkout evil -- .claude/settings.json')).toEqual(['below:.claude/settings.json']);
    expect(reach('git checkout HEAD~1 -- src/*.ts docs')).toEqual(['below:src', 'below:docs']);
    expect(reach('git -C sub checkout x -- a.txt')).toEqual(['below:sub/a.txt']);
    expect(reach('git -C a -C b checkout x -- f')).toEqual(['below:a/b/f']);
    expect(reach('git restore --source=evil .claude')).toEqual(['below:.claude']);
    expect(reach('git restore -s evil -- src')).toEqual(['below:src']);
    expect(reach("git checkout x -- ':(top)'")).toEqual(['work-tree:.']);
    expect(reach("git checkout x -- '*.json'")).toEqual(['below:.']);
    expect(reach('git checkout --pathspec-from-file=l x')).toEqual(['work-tree:.']);
    expect(reach('git stash push -- src/a.ts')).toEqual(['below:src/a.ts']);
    expect(reach('git rm -r .claude')).toEqual(['below:.claude']);
    expect(reach('git mv a .gatehouse')).toEqual(['below:a', 'below:.gatehouse']);
    expect(reach('git --work-tree=.claude checkout evil -- .')).toEqual(['below:.claude']);
    expect(reach('git --work-tree .claude reset --hard')).toEqual(['below:.claude']);
  });
  it('clone, worktree, init with a template, config writes, hook installers', () => {
    expect(reach('git clone https://h/x/repo.git')).toEqual(['below:repo']);
    expect(reach('git clone https://h/x/.claude')).toEqual(['below:.claude']);
    expect(reach('git clone -b main url dest')).toEqual(['below:dest']);
    expect(reach('git clone url .')).toEqual(['below:.']);
    expect(reach('git worktree add ../wt feature')).toEqual(['below:../wt']);
    expect(reach('git init --template=./t')).toEqual(['below:.']);
    expect(reach('git init')).toEqual(['below:.git/(new repository)']);
    expect(reach('git -C .claude init')).toEqual(['below:.claude/.git/(new repository)']);
    expect(reach('git archive -o .claude/x.tar HEAD')).toEqual(['below:.claude/x.tar']);
    expect(reach('git bundle create .gatehouse/b HEAD')).toEqual(['below:.gatehouse/b']);
    expect(reach('git diff --output=.claude/d')).toEqual(['below:.claude/d']);
    expect(reach('git -c core.worktree=.claude checkout x -- a')).toEqual(['work-tree:.']);
    expect(reach('git config core.hooksPath .evil')).toEqual(['git-config:.']);
    expect(reach('git config set core.fsmonitor x')).toEqual(['git-config:.']);
    expect(reach('git config --unset core.pager')).toEqual(['git-config:.']);
    expect(reach('git lfs install')).toEqual(['git-hooks:.', 'git-config:.']);
    expect(reach('pre-commit install')).toEqual(['git-hooks:.', 'git-config:.']);
    expect(reach('husky')).toEqual(['git-hooks:.', 'git-config:.']);
  });
  it('what only looks or only moves refs reaches nothing', () => {
    for (const c of [
      'git status',
      'git log -p',
      'git diff HEAD',
      'git checkout',
      'git checkout -b feature',
      'git checkout --orphan x',
      'git switch -c feature',
      'git reset HEAD~1',
      'git reset --soft HEAD~1',
      'git restore --staged a.txt',
      'git stash list',
      'git stash show -p',
      'git apply --check x.patch',
      'git apply --stat x.patch',
      'git apply --cached x.patch',
      'git clean -n',
      'git rm --cached x',
      'git config --get user.name',
      'git config user.name',
      'git config --global user.name me',
      'git config -l',
      'git commit -m x',
      'git fetch',
      'git push -u origin main',
      'git branch -D x',
      'git --version',
      'git diff --stat',
      'git archive HEAD',
    ])
      expect(reach(c), c).toEqual([]);
  });
});

describe('archives', () => {
  it('tar -x in every spelling reaches -C (cumulative) or the working directory', () => {
    for (const c of [
      'tar -xf x.tar',
      'tar xf x.tar',
      'tar xvzf x.tgz',
      'tar -xvf x.tar',
      'tar --extract -f x.tar',
      'tar --extr -f x.tar',
      'tar --get -f x.tar',
      '\\tar -x -f x.tar',
      'bsdtar -xf x.tar',
      'busybox tar -xf x.tar',
      'curl -s https://e.x/a.tgz | tar xz',
    ])
      expect(reach(c), c).toEqual(['below:.']);
    expect(reach('tar -C .claude -x -f x')).toEqual(['below:.claude']);
    expect(reach('tar -xf x.tar -C build/')).toEqual(['below:build/']);
    expect(reach('tar -xf x.tar --directory=out')).toEqual(['below:out']);
    expect(reach('tar -xf x.tar --dir out')).toEqual(['below:out']);
    expect(reach('tar xCf build x.tar')).toEqual(['below:build']);
    expect(reach('tar -xf x.tar -Cbuild')).toEqual(['below:build']);
    expect(reach('tar -xf x.tar -C build -C ../.claude')).toEqual(['below:build', 'below:build/../.claude']);
    expect(reach('tar -xPf x.tar')).toEqual(['below:/']);
    expect(reach('tar -xf x.tar -C build --one-top-level=../.claude')).toEqual([
      'below:build',
      'below:build/../.claude',
    ]);
    expect(reach('tar -xf x.tar --absolute-names')).toEqual(['below:/']);
  });
  it('listing, creating and extracting to stdout reach nothing', () => {
    for (const c of ['tar -tf x.tar', 'tar tvf x.tar', 'tar -czf x.tgz src', 'tar -xOf x.tar a', 'tar --list -f x'])
      expect(reach(c), c).toEqual([]);
  });
  it('unzip, 7z, unrar, cpio, ar, jar, pax, unsquashfs, dpkg-deb', () => {
    expect(reach('unzip a.zip')).toEqual(['below:.']);
    expect(reach('unzip -o a.zip -d out')).toEqual(['below:out']);
    expect(reach('unzip -qod.claude a.zip')).toEqual(['below:.claude']);
    expect(reach('unzip -d lib a.zip')).toEqual(['below:lib']);
    expect(reach('unzip -l a.zip')).toEqual([]);
    expect(reach('unzip -p a.zip f')).toEqual([]);
    expect(reach('unzip -: a.zip')).toEqual(['below:/']);
    expect(reach('7z x a.7z -o.claude')).toEqual(['below:.claude']);
    expect(reach('7z x a.7z')).toEqual(['below:.']);
    expect(reach('7z l a.7z')).toEqual([]);
    expect(reach('unrar x a.rar out/')).toEqual(['below:out/']);
    expect(reach('cpio -idv < a.cpio')).toEqual(['below:/']);
    expect(reach('cpio -i --no-absolute-filenames < a.cpio')).toEqual(['below:.']);
    expect(reach('ar x lib.a')).toEqual(['below:.']);
    expect(reach('jar xf a.jar')).toEqual(['below:.']);
    expect(reach('pax -r < a.pax')).toEqual(['below:/']);
    expect(reach('unsquashfs a.sqfs')).toEqual(['below:squashfs-root']);
    expect(reach('dpkg-deb -x a.deb out')).toEqual(['below:out']);
  });
});

describe('copies, patches, downloads, packages', () => {
  it('cp/mv/ln/install: a source lands at DEST/name; `x/.` and -T write DEST itself', () => {
    expect(reach('cp -r src dist')).toEqual(['into:dist/src']);
    expect(reach('cp -a vendor/.claude .')).toEqual(['into:./.claude']);
    expect(reach('cp -r evil/. .')).toEqual(['below:.']);
    expect(reach('cp -r vendor/.* .')).toEqual(['below:.']); // the names a glob gives are only known at run time
    expect(reach('cp -r src/* dist')).toEqual(['below:dist']);
    expect(reach('cp -rT evil .claude')).toEqual(['below:.claude']);
    expect(reach('cp -t . a/.gatehouse b')).toEqual(['into:./.gatehouse', 'into:./b']);
    expect(reach('mv x/.claude .')).toEqual(['into:./.claude']);
    expect(reach('ln -s x/.claude')).toEqual(['into:./.claude']);
  });
  it("rsync and scp: the destination (a source folder's name inside it; its contents with `src/`)", () => {
    expect(reach('rsync -a src/ .')).toEqual(['below:.']);
    expect(reach('rsync -a src dist')).toEqual(['into:dist/src']);
    expect(reach('rsync -aR a/b .')).toEqual(['below:.']);
    expect(reach('rsync -e ssh -a host:dir .')).toEqual(['below:.']);
    expect(reach('rsync -a . host:backup')).toEqual([]);
    expect(reach('scp -r host:x .')).toEqual(['below:.']);
  });
  it('patch, wget -r, package installs and npm pack', () => {
    expect(reach('patch -p1 < x.patch')).toEqual(['below:.']);
    expect(reach('patch -d .claude -p1 -i x.patch')).toEqual(['below:.claude']);
    expect(reach('patch --dry-run -p1 < x.patch')).toEqual([]);
    expect(reach('wget -r -np https://e.x/')).toEqual(['below:.']);
    expect(reach('wget https://e.x/a')).toEqual([]);
    expect(reach('npm install')).toContain('below:node_modules');
    expect(reach('npm ci --prefix .claude')).toContain('below:.claude/node_modules');
    expect(reach('yarn')).toContain('below:package.json');
    expect(reach('pnpm -C .gatehouse add x')).toContain('below:.gatehouse/node_modules');
    expect(reach('npm install -g typescript')).toEqual([]);
    expect(reach('npm pack --pack-destination .claude')).toEqual(['below:.claude/(package tarball).tgz']);
    expect(reach('pip install --target .claude x')).toEqual(['below:.claude']);
    expect(reach('npm test')).toEqual([]);
  });
});
