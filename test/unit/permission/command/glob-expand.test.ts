import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  analyzeCommand,
  initShellParser,
  readOnlyPathArgs,
  readPathArgs,
} from '../../../../src/main/permission/command';
import { expandGlobArg } from '../../../../src/main/permission/command/glob-expand';
import { makeContext, removeContext } from './helpers';

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

describe('expandGlobArg', () => {
  it('matches like bash, and more: dot files and any case', () => {
    expect(sorted(expandGlobArg('src/*.ts', ctx))).toEqual(['src/B.TS', 'src/a.ts']);
    expect(sorted(expandGlobArg('*', ctx))).toEqual(['.env', 'README.md', 'docs', 'src']);
    expect(sorted(expandGlobArg('src/?.ts', ctx))).toEqual(['src/B.TS', 'src/a.ts']);
  });

  it('lets ** reach every depth; a match through a symlink keeps the link in its path, to be judged where it lands', () => {
    fs.writeFileSync(path.join(outside, 'x.ts'), '');
    const all = expandGlobArg('**/*.ts', ctx) ?? [];
    expect(all).toContain('src/deep/er/c.ts');
    expect(all).toContain('docs/x.ts');
    expect(expandGlobArg('**', ctx)).toContain('docs');
  });

  it('goes through a matched symlink for the rest of the pattern, so the real target can be judged', () => {
    expect(expandGlobArg('doc*/id_rsa', ctx)).toEqual(['docs/id_rsa']);
  });

  it('returns the word itself when nothing matches, and null for what it cannot expand', () => {
    expect(expandGlobArg('nothing*', ctx)).toEqual(['nothing*']);
    expect(expandGlobArg('$X*', ctx)).toBeNull();
    expect(expandGlobArg('~root/*', ctx)).toBeNull();
    expect(expandGlobArg('@(a|b)*', ctx)).toBeNull();
    expect(expandGlobArg('plain', ctx)).toBeNull();
  });

  it('expands absolute and home patterns', () => {
    fs.writeFileSync(path.join(ctx.home, 'notes.txt'), '');
    expect(expandGlobArg('~/*.txt', ctx)).toEqual([path.join(ctx.home, 'notes.txt')]);
    expect(expandGlobArg(`${outside}/id*`, ctx)).toEqual([path.join(outside, 'id_rsa')]);
  });
});

describe('glob arguments of read-only and reading commands', () => {
  const ro = (c: string, withCtx: boolean): string[] | null => {
    const cmd = analyzeCommand(c).commands[0];
    if (cmd === undefined) throw new Error('no command');
    return sorted(readOnlyPathArgs(cmd, withCtx ? ctx : undefined));
  };

  it('are expanded when the context is given, else make the command not read-only', () => {
    expect(ro('ls src/*.ts', true)).toEqual(['src/B.TS', 'src/a.ts']);
    expect(ro('ls src/*.ts', false)).toBeNull();
    expect(ro('cat doc*/id_rsa', true)).toEqual(['docs/id_rsa']);
    expect(ro('grep -n x src/*.ts', true)).toEqual(['src/B.TS', 'src/a.ts']);
    expect(ro('cat $X/*.ts', true)).toBeNull();
    // the caller passes where the command runs: after `cd src`, the src folder
    const afterCd = analyzeCommand('cd src && ls *.ts').commands[1];
    expect(afterCd && readOnlyPathArgs(afterCd, { ...ctx, projectRoot: path.join(ctx.projectRoot, 'src') })).toEqual([
      'B.TS',
      'a.ts',
    ]);
  });

  it('readPathArgs lists what a glob reaches, so Read rules see `.env` in `cat .en*`', () => {
    const cmd = analyzeCommand('cat .en*').commands[0];
    expect(cmd && readPathArgs(cmd, ctx)).toEqual(['.en*', '.env']);
    expect(cmd && readPathArgs(cmd)).toEqual(['.en*']);
  });
});
