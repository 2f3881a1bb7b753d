import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCommandSandbox } from '../../src/sandbox/command-sandbox';
import { type CommandSandbox } from '../../src/sandbox/types';
import { makeWorld, noBwrapReason, runIn, runWrapped, type SandboxWorld } from '../unit/sandbox/support';

// Defence in depth: whatever the analysis lets through, a sandboxed command cannot rewrite the permission rules
// (.gatehouse/, .claude/) or plant a git hook (hooks, config, wherever the git dir really is), in the project or in
// an additional directory, whether those exist yet or not; and it leaves no stray folder behind.

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

/** Every path below `dir` (folders end in /, files carry their text, links their target). */
function snapshot(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, rel: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(d, e.name);
      const r = path.join(rel, e.name);
      if (e.isSymbolicLink()) out.push(`${r} -> ${fs.readlinkSync(full)}`);
      else if (e.isDirectory()) {
        out.push(`${r}/`);
        walk(full, r);
      } else out.push(`${r}: ${fs.readFileSync(full, 'utf8')}`);
    }
  };
  walk(dir, '');
  return out;
}

/** Runs each attack on its own (one failing does not stop the next), then the normal writes. */
function script(attacks: string[], normal: string): string {
  return [...attacks.map((a) => `{ ${a} ; } 2>&1`), normal].join('\n');
}

describe.skipIf(noBwrapReason !== null)(
  `sandboxed commands cannot change permission rules or git hooks (real bubblewrap${noBwrapReason ? `; skipped: ${noBwrapReason}` : ''})`,
  () => {
    let world: SandboxWorld;
    let extra: string;
    let sandbox: CommandSandbox | null = null;

    const start = async (): Promise<CommandSandbox> => {
      const created = await createCommandSandbox(world.config({ additionalDirectories: [extra] }));
      if (created.kind !== 'sandbox') throw new Error(`sandbox unavailable: ${created.reason}`);
      sandbox = created;
      return created;
    };

    beforeEach(() => {
      world = makeWorld();
      extra = path.join(world.root, 'extra');
      fs.mkdirSync(extra);
    });
    afterEach(async () => {
      await sandbox?.dispose();
      sandbox = null;
      world.remove();
    });

    it('existing rules, hooks and git config: no write, delete, rename, link or new file, by any route; normal writes work', async () => {
      const p = world.project;
      write(path.join(p, '.gatehouse', 'settings.yaml'), 'permissions: {}\n');
      write(path.join(p, '.claude', 'settings.json'), '{}\n');
      write(path.join(p, '.git', 'config'), '[core]\n\tbare = false\n');
      write(path.join(p, '.git', 'hooks', 'pre-commit.sample'), '#!/bin/sh\n');
      write(path.join(p, '.git', 'HEAD'), 'ref: refs/heads/main\n');
      fs.mkdirSync(path.join(p, '.git', 'objects'));
      const guarded = ['.gatehouse', '.claude', path.join('.git', 'hooks')].map((d) => snapshot(path.join(p, d)));
      const s = await start();
      const r = await runIn(
        s,
        script(
          [
            'echo "allow: [Bash]" >> .gatehouse/settings.yaml',
            'echo "allow: [Bash]" > .gatehouse/settings.local.yaml',
            'rm -f .claude/settings.json',
            'rm -rf .claude',
            'mv .claude/settings.json .claude/old.json',
            'mv .claude gone-claude',
            'mv .gatehouse gone-gatehouse',
            'cp /etc/hostname .claude/settings.local.json',
            'touch .claude/new',
            'mkdir .claude/commands',
            'ln -s /tmp .claude/link',
            'ln .claude/settings.json hard && echo \'{"permissions":{"allow":["Bash"]}}\' > hard',
            "python3 -c \"open('.claude/settings.json', 'w').write('x')\"",
            'truncate -s 0 .gatehouse/settings.yaml',
            'echo evil > .git/hooks/pre-commit',
            'chmod +x .git/hooks/pre-commit.sample',
            'mv .git/hooks .git/hooks-old',
            'rm -rf .git/hooks',
            'printf "[core]\\n\\thooksPath = /tmp\\n" >> .git/config',
            'sed -i s/bare/x/ .git/config',
            'mv .git/config .git/config.old',
            'mv .git .git-old',
            'ln -s .claude c && echo x > c/settings.local.json',
            'ln -s .git/hooks h && echo x > h/post-checkout',
            '(cd .. && mv project project-moved)',
            `mv ${extra} ${extra}-moved`,
          ],
          'echo ok > normal.txt && mkdir -p src/deep && echo y > src/deep/f && echo blob > .git/objects/blob && echo > .git/index && echo all-normal-writes-ok',
        ),
      );
      expect(r.output).toContain('all-normal-writes-ok');
      expect(['.gatehouse', '.claude', path.join('.git', 'hooks')].map((d) => snapshot(path.join(p, d)))).toEqual(
        guarded,
      );
      expect(fs.readFileSync(path.join(p, '.git', 'config'), 'utf8')).toBe('[core]\n\tbare = false\n');
      for (const gone of ['gone-claude', 'gone-gatehouse', '.git-old', 'hard'])
        expect(fs.existsSync(path.join(p, gone)), gone).toBe(false);
      expect(fs.existsSync(path.join(p, '.git', 'hooks-old'))).toBe(false);
      expect(fs.existsSync(path.join(p, '.git', 'config.old'))).toBe(false);
      expect(fs.existsSync(path.join(world.home, 'project-moved'))).toBe(false);
      expect(fs.existsSync(`${extra}-moved`)).toBe(false);
      expect(fs.readFileSync(path.join(p, 'src', 'deep', 'f'), 'utf8')).toBe('y\n');
      expect(fs.readFileSync(path.join(p, '.git', 'objects', 'blob'), 'utf8')).toBe('blob\n');
      expect(r.violation).toContain('blocked by sandbox: .claude is read-only in the sandbox');
    });

    it('names that do not exist yet cannot be created (directly, by mv, by link), and no placeholder is left behind', async () => {
      const p = world.project;
      write(path.join(p, '.git', 'config'), '[core]\n');
      fs.mkdirSync(path.join(p, '.git', 'objects'));
      const s = await start();
      const r = await runIn(
        s,
        script(
          [
            'mkdir -p .gatehouse && echo "allow: [Bash]" > .gatehouse/settings.yaml',
            'echo "{}" > .claude/settings.json',
            'mkdir -p .claude/commands',
            'mkdir staged && echo x > staged/settings.json && mv staged .claude',
            'rmdir .claude && mkdir .claude',
            'ln -s staged .gatehouse',
            'mkdir -p .git/hooks && echo evil > .git/hooks/pre-commit',
            'mkdir hk && echo evil > hk/pre-commit && mv hk .git/hooks',
            `mkdir -p ${extra}/.claude && echo x > ${extra}/.claude/settings.json`,
          ],
          'echo ok > normal.txt && echo normal-ok',
        ),
      );
      expect(r.output).toContain('normal-ok');
      expect(fs.readdirSync(p).sort()).toEqual(['.git', 'hk', 'normal.txt', 'staged']);
      expect(fs.readdirSync(path.join(p, '.git')).sort()).toEqual(['config', 'objects']);
      expect(fs.readdirSync(extra)).toEqual([]);
      expect(r.violation).toContain('blocked by sandbox: .');
    });

    it('a worktree: the .git file, the common git dir (in an additional directory) and its hooks and config stay put', async () => {
      const main = path.join(extra, '.git');
      const wtGit = path.join(main, 'worktrees', 'wt');
      write(path.join(main, 'config'), '[core]\n');
      write(path.join(main, 'hooks', 'pre-commit.sample'), '#!/bin/sh\n');
      write(path.join(wtGit, 'commondir'), '../..\n');
      write(path.join(wtGit, 'HEAD'), 'ref: refs/heads/wt\n');
      write(path.join(world.project, '.git'), `gitdir: ${wtGit}\n`);
      write(path.join(extra, '.claude', 'settings.json'), '{}\n');
      const before = [
        snapshot(main),
        snapshot(path.join(extra, '.claude')),
        fs.readFileSync(path.join(world.project, '.git'), 'utf8'),
      ];
      const s = await start();
      const r = await runIn(
        s,
        script(
          [
            "echo 'gitdir: /tmp/evil' > .git",
            'rm -f .git',
            'mv .git dotgit',
            `echo evil > ${main}/hooks/pre-commit`,
            `echo '[core] hooksPath = /tmp' >> ${main}/config`,
            `echo ../../../evil > ${wtGit}/commondir`,
            `mv ${main} ${extra}/g2`,
            `mv ${wtGit} ${main}/worktrees/w2`,
            `echo x > ${extra}/.claude/settings.json`,
          ],
          `echo ref > ${wtGit}/ORIG_HEAD && echo y > ${extra}/plain.txt && echo normal-ok`,
        ),
      );
      expect(r.output).toContain('normal-ok');
      fs.rmSync(path.join(wtGit, 'ORIG_HEAD'));
      expect([
        snapshot(main),
        snapshot(path.join(extra, '.claude')),
        fs.readFileSync(path.join(world.project, '.git'), 'utf8'),
      ]).toEqual(before);
      expect(fs.readFileSync(path.join(extra, 'plain.txt'), 'utf8')).toBe('y\n');
    });

    it('core.hooksPath and included config files are guarded too, existing or not', async () => {
      const p = world.project;
      write(
        path.join(p, '.git', 'config'),
        '[core]\n\thooksPath = .githooks\n[include]\n\tpath = ../repo.gitconfig\n[core "x"]\n\thooksPath = ignored\n',
      );
      write(path.join(p, '.githooks', 'pre-commit'), '#!/bin/sh\nexit 0\n');
      write(path.join(p, 'repo.gitconfig'), '[alias]\n\tst = status\n[core]\n\thooksPath = .husky/_\n');
      const before = [snapshot(path.join(p, '.githooks')), fs.readFileSync(path.join(p, 'repo.gitconfig'), 'utf8')];
      const s = await start();
      const r = await runIn(
        s,
        script(
          [
            'echo evil > .githooks/pre-push',
            'mv .githooks gh2',
            "echo '[core] fsmonitor = evil' >> repo.gitconfig",
            'mkdir -p .husky/_ && echo evil > .husky/_/pre-commit',
          ],
          'mkdir ignored && echo ok > ignored/x && echo normal-ok',
        ),
      );
      expect(r.output).toContain('normal-ok');
      expect([snapshot(path.join(p, '.githooks')), fs.readFileSync(path.join(p, 'repo.gitconfig'), 'utf8')]).toEqual(
        before,
      );
      expect(fs.existsSync(path.join(p, '.husky'))).toBe(false);
      expect(fs.existsSync(path.join(p, 'gh2'))).toBe(false);
    });

    it('a guarded name that is a symbolic link: unavailable (with the reason) at start, and a clear refusal later', async () => {
      fs.mkdirSync(path.join(world.project, 'config', 'claude'), { recursive: true });
      fs.symlinkSync('config/claude', path.join(world.project, '.claude'));
      const refused = await createCommandSandbox(world.config());
      expect(refused.kind).toBe('unavailable');
      expect(refused.kind === 'unavailable' ? refused.reason : '').toContain(
        `${path.join(world.project, '.claude')} (the Claude Code settings folder) is a symbolic link`,
      );
      fs.rmSync(path.join(world.project, '.claude'));

      const s = await start();
      fs.mkdirSync(path.join(world.project, '.git', 'real-hooks'), { recursive: true });
      fs.symlinkSync('real-hooks', path.join(world.project, '.git', 'hooks'));
      await expect(s.wrap('true')).rejects.toThrow(
        /\.git\/hooks \(the git hooks folder\) is a symbolic link.*core\.hooksPath/,
      );
    });

    it('commands running at once share a placeholder: the first to end does not lift the guard of the other', async () => {
      const s = await start();
      const claude = path.join(world.project, '.claude');
      const waitFor = (flag: string): string => `while [ ! -e ${flag} ]; do sleep 0.02; done`;
      const first = runWrapped(await s.wrap(`${waitFor('go-first')}; echo first-done`), 30_000);
      const second = runWrapped(
        await s.wrap(
          `${waitFor('go-second')}; { mkdir -p .claude && echo "{}" > .claude/settings.json; } 2>&1; echo second-done`,
        ),
        30_000,
      );
      expect(fs.readdirSync(claude).length).toBe(2); // one marker per command
      fs.writeFileSync(path.join(world.project, 'go-first'), '');
      expect((await first).output).toContain('first-done');
      expect(fs.readdirSync(claude).length).toBe(1); // the second command's marker keeps the placeholder
      fs.writeFileSync(path.join(world.project, 'go-second'), '');
      const r = await second;
      expect(r.output).toContain('second-done');
      expect(r.output).toMatch(/Read-only file system/);
      expect(fs.existsSync(claude)).toBe(false);
    });
  },
);
