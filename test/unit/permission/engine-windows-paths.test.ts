import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PermissionMode } from '../../../src/shared/permission';
import { pathSystem } from '../../../src/shared/node/platform-path';
import type { PermissionEngine } from '../../../src/main/core/permission/engine';
import { cmd, edit, read, write } from './fixture';
import { makePlatformFixture, type PlatformFixture } from './platform-fixture';

/**
 * Attacks on the engine's paths under Windows semantics (path.win32 rules, written out in platform-path.ts), on the
 * corpus's real tree shown at `C:\` (the project is `C:\project`, the home `C:\userhome`): traversal out of the
 * drive's project, other spellings of protected and secret files (case, `\\?\`, streams, trailing dots, 8.3 names,
 * the administrative share, Git Bash's `/c/`), and rules that name drives and shares.
 */
let fx: PlatformFixture;
let folding: PlatformFixture;

beforeAll(() => {
  fx = makePlatformFixture({ sys: pathSystem('win32', true), root: 'C:\\', foldCase: true, inject: true });
  folding = fx;
});
afterAll(() => fx.cleanup());

/** The decision and who made it. */
async function decide(engine: PermissionEngine, call: unknown): Promise<string> {
  const d = await engine.decide(call);
  return `${d.decision}/${d.source}`;
}

async function expectAll(
  mode: PermissionMode,
  calls: [unknown, string][],
  f: PlatformFixture = folding,
): Promise<void> {
  const engine = await f.engine({ mode });
  const got: [unknown, string][] = [];
  for (const [call] of calls) got.push([call, await decide(engine, call)]);
  expect(got).toEqual(calls);
}

describe('Windows paths: confinement', () => {
  it('climbing out of the drive`s project is judged where it lands', async () => {
    await expectAll('bypassPermissions', [
      [read('C:\\project\\..\\..\\Windows\\win.ini'), 'deny/hard'],
      [read('..\\..\\Windows\\win.ini'), 'deny/hard'],
      [read('c:/project/../outside/secret.txt'), 'deny/hard'],
      [write('C:\\project\\src\\..\\..\\outside\\x.txt'), 'deny/hard'],
      [read('D:\\project\\src\\index.ts'), 'deny/hard'],
      [read('D:src\\index.ts'), 'deny/hard'],
      [read('\\\\srv\\share\\project\\src\\index.ts'), 'deny/hard'],
      [read('C:\\projectX\\a.ts'), 'deny/hard'],
      [read('\\project\\src\\index.ts'), 'allow/mode'],
      [read('C:src\\index.ts'), 'allow/mode'],
      [cmd("echo x > 'C:\\project\\..\\outside\\x.txt'"), 'ask/defaults'],
    ]);
    // a command reading outside the project is no read-only command
    await expectAll('default', [
      [cmd("cat 'C:\\project\\..\\..\\Windows\\win.ini'"), 'ask/mode'],
      [cmd('cat C:/project/../outside/secret.txt'), 'ask/mode'],
      [cmd('cat /c/project/src/index.ts'), 'allow/mode'],
      [cmd("cat '\\\\?\\C:\\project\\src\\index.ts'"), 'allow/mode'],
    ]);
  });

  it('a link is followed whatever the case its name is written in', async () => {
    await expectAll('bypassPermissions', [
      [read('LINK-OUT\\secret.txt'), 'deny/hard'],
      [write('Link-Out\\new.txt'), 'deny/hard'],
      [read('C:\\PROJECT\\link-file'), 'deny/hard'],
      [read('C:\\PROJECT\\SRC\\INDEX.TS'), 'allow/mode'],
    ]);
  });
});

describe('Windows paths: self-protection', () => {
  it('protected folders in any spelling are never written', async () => {
    await expectAll('bypassPermissions', [
      [write('c:/PROJECT/.GATEHOUSE/settings.yaml'), 'deny/hard'],
      [write('\\\\?\\C:\\project\\.gatehouse\\settings.yaml'), 'deny/hard'],
      [write('\\\\.\\C:\\project\\.claude\\settings.json'), 'deny/hard'],
      [write('\\\\?\\UNC\\localhost\\c$\\project\\.gatehouse\\x'), 'deny/hard'],
      [edit('\\\\localhost\\C$\\project\\.Claude\\settings.json'), 'deny/hard'],
      [write('.gatehouse.\\settings.yaml'), 'deny/hard'],
      [write('.gatehouse \\settings.yaml'), 'deny/hard'],
      [write('.gatehouse::$INDEX_ALLOCATION\\settings.yaml'), 'deny/hard'],
      [write('.claude\\settings.json:evil'), 'deny/hard'],
      [write('\\project\\.gatehouse\\settings.yaml'), 'deny/hard'],
      [write('C:.gatehouse\\settings.yaml'), 'deny/hard'],
      [write('src\\...\\..\\.gatehouse\\x'), 'deny/hard'],
      [write('C:\\userhome\\.claude\\Settings.JSON'), 'deny/hard'],
      [write('C:\\GH\\settings.yaml'), 'deny/hard'],
      [write('GATEHO~1\\settings.yaml'), 'deny/hard'],
    ]);
  });

  it('commands reach protected folders through Git Bash, quoted Windows paths and other cases', async () => {
    await expectAll('bypassPermissions', [
      [cmd('cp README.md /c/project/.gatehouse/settings.yaml'), 'deny/hard'],
      [cmd("cp README.md 'C:\\project\\.GATEHOUSE\\settings.yaml'"), 'deny/hard'],
      [cmd("cp README.md '\\\\?\\C:\\project\\.claude\\commands\\x.md'"), 'deny/hard'],
      [cmd('cp README.md .Claude\\\\agents\\\\x.md'), 'deny/hard'],
      [cmd('cd /c/project/.gatehouse && echo x > settings.yaml'), 'deny/hard'],
      [cmd('cd src && cd C:/project/.claude && touch x'), 'deny/hard'],
      [cmd("cd src && cd 'C:\\project\\.gatehouse' && touch x"), 'deny/hard'],
      [cmd('rm -rf .GATEHOUSE'), 'deny/hard'],
      [cmd('ln -s README.md /c/project/.Claude/x'), 'deny/hard'],
      [cmd('tar -xf x.tar -C C:/project'), 'ask/hard'],
    ]);
  });

  it('.git/hooks and other code-running folders ask in any spelling', async () => {
    await expectAll('bypassPermissions', [
      [write('\\\\?\\C:\\project\\.git\\hooks\\pre-commit'), 'ask/defaults'],
      [write('.GIT\\HOOKS\\pre-commit'), 'ask/defaults'],
      [write('.git.\\hooks\\pre-commit'), 'ask/defaults'],
      [write('.VSCode\\settings.json'), 'ask/defaults'],
      [cmd("cp x '\\\\?\\C:\\project\\.git\\hooks\\pre-commit'"), 'ask/defaults'],
      [cmd('git config core.hooksPath x'), 'ask/hard'],
    ]);
  });
});

describe('Windows paths: secrets', () => {
  it('a secret file is a secret in every spelling', async () => {
    await expectAll('bypassPermissions', [
      [read('.ENV'), 'ask/defaults'],
      [read('.env::$DATA'), 'ask/defaults'],
      [read('.env.'), 'ask/defaults'],
      [read('.env . .'), 'ask/defaults'],
      [read('C:\\project\\.Env'), 'ask/defaults'],
      [read('\\\\?\\C:\\project\\.env'), 'ask/defaults'],
      [read('ENV~1'), 'deny/hard'],
      [cmd('cat .ENV'), 'ask/defaults'],
      [cmd("cat '.env::$DATA'"), 'ask/defaults'],
      [cmd('cat ENV~1'), 'ask/defaults'],
      [cmd('cat /c/userhome/.SSH/ID_RSA'), 'ask/defaults'],
      [cmd('cat ~/.Ssh/id_rsa'), 'ask/defaults'],
      [cmd('grep -r KEY .'), 'ask/defaults'],
    ]);
  });

  it('a narrow allow unlocks the secret in any case; a broad one does not', async () => {
    folding.settings('user', { allow: ['Read(.env)', 'Read(~\\.SSH\\**)', 'Read(src\\**)'] });
    try {
      await expectAll('bypassPermissions', [
        [read('.ENV'), 'allow/user'],
        [cmd('cat .Env'), 'allow/mode'],
        [cmd('cat ~/.ssh/id_rsa'), 'allow/mode'],
      ]);
      folding.settings('user', { allow: ['Read', 'Read(**)', 'Bash(cat:*)'] });
      await expectAll('bypassPermissions', [
        [read('.ENV'), 'ask/defaults'],
        [cmd('cat .Env'), 'ask/defaults'],
        [cmd('cat ~/.ssh/id_rsa'), 'ask/defaults'],
      ]);
    } finally {
      folding.clearSettings();
    }
  });
});

describe('Windows paths: rules name drives and shares', () => {
  const engineWith = async (rules: Record<string, string[]>): Promise<PermissionEngine> => {
    folding.settings('user', rules);
    return folding.engine({ mode: 'default' });
  };
  afterAll(() => folding.clearSettings());

  it('//c/… and //C:/… name drive C, and only drive C', async () => {
    for (const rule of [
      'Read(//c/userhome/**)',
      'Read(//C:/userhome/**)',
      'Read(C:\\userhome\\**)',
      'Read(//C/userhome/**)',
    ]) {
      const engine = await engineWith({ deny: [rule] });
      expect(await decide(engine, cmd('cat C:/userhome/notes.txt')), rule).toBe('deny/user');
      expect(await decide(engine, cmd('cat /c/userhome/notes.txt')), rule).toBe('deny/user');
      expect(await decide(engine, cmd('cat D:/userhome/notes.txt')), rule).toBe('ask/mode');
      expect(await decide(engine, cmd("cat '\\\\srv\\c\\userhome\\notes.txt'")), rule).toBe('ask/mode');
    }
  });

  it('//Users/** is a network share, not every drive', async () => {
    const engine = await engineWith({ deny: ['Read(//userhome/**)', 'Read(//project/**)'] });
    expect(await decide(engine, cmd('cat C:/userhome/notes.txt'))).toBe('ask/mode');
    expect(await decide(engine, read('src/index.ts'))).toBe('allow/mode');
    expect(await decide(engine, cmd("cat '\\\\userhome\\share\\notes.txt'"))).toBe('deny/user');
  });

  it('project rules written with the drive match the project', async () => {
    const engine = await engineWith({ deny: ['Read(//c/project/secrets/**)', 'Edit(C:\\project\\docs\\**)'] });
    expect(await decide(engine, read('secrets\\key.txt'))).toBe('deny/user');
    expect(await decide(engine, read('SECRETS/KEY.TXT'))).toBe('deny/user');
    expect(await decide(engine, cmd('cat secrets/key.txt'))).toBe('deny/user');
    expect(await decide(engine, write('docs/a.md'))).toBe('deny/user');
    expect(await decide(engine, write('src/a.ts'))).toBe('ask/mode');
    const other = await engineWith({ deny: ['Read(//d/project/secrets/**)'] });
    expect(await decide(other, read('secrets\\key.txt'))).toBe('allow/mode');
  });
});

describe('Windows paths: the built-in deny list', () => {
  it('drive roots, the home folder, system folders and project ancestors in Windows spellings', async () => {
    await expectAll('bypassPermissions', [
      [cmd('rm -rf /c/'), 'deny/hard'],
      [cmd("rm -rf 'C:\\'"), 'deny/hard'],
      [cmd("rm -rf '\\\\?\\C:\\'"), 'deny/hard'],
      [cmd('rm -rf c:/*'), 'deny/hard'],
      [cmd('rm -rf C:/Windows'), 'deny/hard'],
      [cmd("rm -rf 'C:\\Program Files'"), 'deny/hard'],
      [cmd('rm -rf /c/userhome'), 'deny/hard'],
      [cmd('rm -rf ~'), 'deny/hard'],
      [cmd('rm -rf C:/PROJECT'), 'deny/hard'],
      [cmd('find /c/ -delete'), 'deny/hard'],
      [cmd('rm -rf /'), 'deny/hard'],
      [cmd('rm -rf /usr'), 'deny/hard'],
      [cmd('rm -rf ./build'), 'allow/mode'],
      [cmd('rm -rf /tmp/build'), 'ask/defaults'],
    ]);
  });
});

describe('Windows paths in a case-sensitive folder', () => {
  let exact: PlatformFixture;
  beforeAll(() => {
    exact = makePlatformFixture({ sys: pathSystem('win32', false), root: 'C:\\', foldCase: false, inject: true });
  });
  afterAll(() => exact.cleanup());

  it('names keep their case, drive letters and prefixes still do not matter', async () => {
    await expectAll(
      'bypassPermissions',
      [
        [write('c:\\project\\.gatehouse\\settings.yaml'), 'deny/hard'],
        [write('\\\\?\\C:\\project\\.gatehouse\\x'), 'deny/hard'],
        [write('.gatehouse.\\x'), 'deny/hard'],
        [write('.GATEHOUSE\\x'), 'allow/mode'],
        [read('.ENV'), 'allow/mode'],
        [read('.env'), 'ask/defaults'],
        [read('C:\\PROJECT\\src\\index.ts'), 'deny/hard'],
      ],
      exact,
    );
  });
});
