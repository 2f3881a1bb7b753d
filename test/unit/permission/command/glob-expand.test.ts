import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommand } from '../../../../src/main/core/shell-analysis/analyze';
import { initShellParser } from '../../../../src/main/core/shell-analysis/parse/parser';
import { readOnlyPathArgs, readPathArgs } from '../../../../src/main/core/shell-analysis/read-only/read-only';
import { expandGlobArg } from '../../../../src/main/core/shell-analysis/words/glob-expand';
import { makeContext, onDisk, removeContext } from './helpers';

const ctx = makeContext();
const outside = path.join(ctx.base, 'outside');

beforeAll(async () => {
  await initShellParser();
  const p = ctx.projectRoot;
  fs.mkdirSync(path.join(p, 'src', 'deep', 'er'), { recursive: true });
  fs.writeFileSync(path.join(p, 'src', 'a.ts'), '');
  fs.writeFileSync(path.join(p, 'src', 'B.TS'), '');
  fs.writeFileSync(path.join(p, 'src', 'deep', 'er', 'c.ts'), '');
  fs.writeFileSync(path.join(p, '.env'), 'SECRET=1');
  fs.writeFileSync(path.join(p, 'README.md'), '');
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'id_rsa'), 'key');
  fs.symlinkSync(outside, path.join(p, 'docs'));
});

afterAll(() => removeContext(ctx));

function sorted(xs: string[] | null): string[] | null {
  return xs === null ? null : [...xs].sort();
}

const glob = (arg: string): Promise<string[] | null> => onDisk(ctx, (c) => expandGlobArg(arg, c));

describe('expandGlobArg', () => {
  it('matches like bash, and more: dot files and any case', async () => {
    expect(sorted(await glob('src/*.ts'))).toEqual(['src/B.TS', 'src/a.ts']);
    expect(sorted(await glob('*'))).toEqual(['.env', 'README.md', 'docs', 'src']);
    expect(sorted(await glob('src/?.ts'))).toEqual(['src/B.TS', 'src/a.ts']);
  });

  it('lets ** reach every depth; a match through a symlink keeps the link in its path, to be judged where it lands', async () => {
    fs.writeFileSync(path.join(outside, 'x.ts'), '');
    const all = (await glob('**/*.ts')) ?? [];
    expect(all).toContain('src/deep/er/c.ts');
    expect(all).toContain('docs/x.ts');
    expect(await glob('**')).toContain('docs');
  });

  it('goes through a matched symlink for the rest of the pattern, so the real target can be judged', async () => {
    expect(await glob('doc*/id_rsa')).toEqual(['docs/id_rsa']);
  });

  it('returns the word itself when nothing matches, and null for what it cannot expand', async () => {
    expect(await glob('nothing*')).toEqual(['nothing*']);
    expect(await glob('$X*')).toBeNull();
    expect(await glob('~root/*')).toBeNull();
    expect(await glob('@(a|b)*')).toBeNull();
    expect(await glob('plain')).toBeNull();
  });

  it('expands absolute and home patterns', async () => {
    fs.writeFileSync(path.join(ctx.home, 'notes.txt'), '');
    expect(await glob('~/*.txt')).toEqual([path.join(ctx.home, 'notes.txt')]);
    expect(await glob(`${outside}/id*`)).toEqual([path.join(outside, 'id_rsa')]);
  });
});

describe('glob arguments of read-only and reading commands', () => {
  const ro = async (c: string, withCtx: boolean): Promise<string[] | null> => {
    const cmd = analyzeCommand(c).commands[0];
    if (cmd === undefined) throw new Error('no command');
    return sorted(withCtx ? await onDisk(ctx, (on) => readOnlyPathArgs(cmd, on)) : readOnlyPathArgs(cmd));
  };

  it('are expanded when the context is given, else make the command not read-only', async () => {
    expect(await ro('ls src/*.ts', true)).toEqual(['src/B.TS', 'src/a.ts']);
    expect(await ro('ls src/*.ts', false)).toBeNull();
    expect(await ro('cat doc*/id_rsa', true)).toEqual(['docs/id_rsa']);
    expect(await ro('grep -n x src/*.ts', true)).toEqual(['src/B.TS', 'src/a.ts']);
    expect(await ro('cat $X/*.ts', true)).toBeNull();
    // the caller passes where the command runs: after `cd src`, the src folder
    const afterCd = analyzeCommand('cd src && ls *.ts').commands[1];
    const inSrc = { ...ctx, projectRoot: path.join(ctx.projectRoot, 'src') };
    expect(afterCd && (await onDisk(inSrc, (on) => readOnlyPathArgs(afterCd, on)))).toEqual(['B.TS', 'a.ts']);
  });

  it('readPathArgs lists what a glob reaches, so Read rules see `.env` in `cat .en*`', async () => {
    const cmd = analyzeCommand('cat .en*').commands[0];
    expect(cmd && (await onDisk(ctx, (on) => readPathArgs(cmd, on)))).toEqual(['.en*', '.env']);
    expect(cmd && readPathArgs(cmd)).toEqual(['.en*']);
  });
});
