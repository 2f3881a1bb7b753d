import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOST_PATHS } from '../../../src/shared/node/platform-path';
import type { PermissionEngine } from '../../../src/main/core/permission/engine';
import { cmd, read, write } from './fixture';
import { makePlatformFixture, type PlatformFixture } from './platform-fixture';

/**
 * Case folding is a property of the volume, not of the OS: the same engine code on the same machine judges `.ENV`
 * as `.env` on a volume that folds case (APFS's and NTFS's default) and as another file on one that does not. The
 * engine asks the volume itself (platform-path's probe through its disk): here both volumes are real folders on
 * this machine, one of them shown to the engine as a case-insensitive volume would answer.
 */
let folding: PlatformFixture;
let exact: PlatformFixture;

beforeAll(() => {
  folding = makePlatformFixture({ sys: HOST_PATHS, foldCase: true, inject: false });
  exact = makePlatformFixture({ sys: HOST_PATHS, foldCase: false, inject: false });
});
afterAll(async () => {
  await folding.cleanup();
  await exact.cleanup();
});

async function decide(engine: PermissionEngine, call: unknown): Promise<string> {
  const d = await engine.decide(call);
  return `${d.decision}/${d.source}`;
}

describe('a POSIX volume that folds case', () => {
  it('is found by the engine, and protected and secret files are judged as the files they are', async () => {
    const engine = await folding.engine({ mode: 'bypassPermissions' });
    const calls: [unknown, string][] = [
      [write('.GATEHOUSE/settings.yaml'), 'deny/hard'],
      [write('.Claude/commands/x.md'), 'deny/hard'],
      [write(`${folding.vars.project.toUpperCase()}/.gatehouse/x`), 'deny/hard'],
      [cmd('cp README.md .GateHouse/settings.local.yaml'), 'deny/hard'],
      [cmd('rm -rf .CLAUDE'), 'deny/hard'],
      [read('.ENV'), 'ask/defaults'],
      [read('.Env.Local'), 'ask/defaults'],
      [read('KEY.PEM'), 'ask/defaults'],
      [cmd('cat .ENV'), 'ask/defaults'],
      [cmd('cat ~/.SSH/ID_RSA'), 'ask/defaults'],
      [write('.GIT/HOOKS/pre-commit'), 'ask/defaults'],
      [read('LINK-OUT/secret.txt'), 'deny/hard'],
      [write('Link-Out/new.txt'), 'deny/hard'],
      [read('SRC/INDEX.TS'), 'allow/mode'],
    ];
    const got: [unknown, string][] = [];
    for (const [call] of calls) got.push([call, await decide(engine, call)]);
    expect(got).toEqual(calls);
  });

  it('spellings such a volume takes for the same name count too (long s, HFS+ ignorable characters)', async () => {
    const engine = await folding.engine({ mode: 'bypassPermissions' });
    expect(await decide(engine, cmd('cat ~/.\u017fsh/id_rsa'))).toBe('ask/defaults');
    expect(await decide(engine, write('.g\u200cit/hooks/pre-commit'))).toBe('ask/defaults');
    expect(await decide(engine, write('.gatehou\u017fe/settings.yaml'))).toBe('deny/hard');
  });

  it('rules match names in any case', async () => {
    folding.settings('user', { deny: ['Read(./Secrets/**)', 'Edit(DOCS/**)'], allow: ['Read(.ENV)'] });
    try {
      const engine = await folding.engine({ mode: 'default' });
      expect(await decide(engine, read('secrets/key.txt'))).toBe('deny/user');
      expect(await decide(engine, cmd('cat SECRETS/key.txt'))).toBe('deny/user');
      expect(await decide(engine, write('docs/a.md'))).toBe('deny/user');
      expect(await decide(engine, read('.env'))).toBe('allow/user');
    } finally {
      folding.clearSettings();
    }
  });
});

describe('a POSIX volume that does not fold case, on the same machine', () => {
  it('judges other cases as the other files they are', async () => {
    const engine = await exact.engine({ mode: 'bypassPermissions' });
    expect(await decide(engine, write('.GATEHOUSE/settings.yaml'))).toBe('allow/mode');
    expect(await decide(engine, read('.ENV'))).toBe('allow/mode');
    expect(await decide(engine, read('LINK-OUT/secret.txt'))).toBe('allow/mode');
    expect(await decide(engine, write('.gatehouse/settings.yaml'))).toBe('deny/hard');
    expect(await decide(engine, read('.env'))).toBe('ask/defaults');
  });
});
