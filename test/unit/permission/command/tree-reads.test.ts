import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommand } from '../../../../src/main/core/shell-analysis/analyze';
import { initShellParser } from '../../../../src/main/core/shell-analysis/parse/parser';
import { treeReads } from '../../../../src/main/core/shell-analysis/programs/tree-reads';

/** Contract "Defaults"/"Reads by programs": the closed table of readers of whole trees. */
beforeAll(async () => {
  await initShellParser();
});

function trees(command: string): string[] {
  const cmd = analyzeCommand(command).commands.at(-1);
  if (cmd === undefined) throw new Error(command);
  return treeReads(cmd).map(
    (t) =>
      `${t.recursive ? 'r' : 'flat'}${t.skipHidden ? '-visible' : ''}${t.followLinks ? '-follow' : ''}:${t.value}` +
      (t.include.length + t.exclude.length + t.excludeDir.length > 0
        ? ` +${t.include.join(',')} -${[...t.exclude, ...t.excludeDir].join(',')}`
        : ''),
  );
}

describe('tree readers', () => {
  it('grep recursing (any spelling), with its filters; without recursion it reads only files', () => {
    expect(trees('grep -r KEY .')).toEqual(['r:.']);
    expect(trees('grep -rn KEY')).toEqual(['r:.']);
    expect(trees('grep -Rl KEY src')).toEqual(['r-follow:src']);
    expect(trees('egrep --recursive -e KEY a b')).toEqual(['r:a', 'r:b']);
    expect(trees('grep -d recurse KEY x')).toEqual(['r:x']);
    expect(trees('grep --directories=recurse KEY x')).toEqual(['r:x']);
    expect(trees("grep -r --include='*.ts' --exclude-dir=node_modules KEY .")).toEqual(['r:. +*.ts -node_modules']);
    expect(trees('grep KEY src/a.ts')).toEqual([]);
  });
  it('rg: recursive, hidden files skipped unless --hidden / -uu / -.; names only reads nothing', () => {
    expect(trees('rg KEY')).toEqual(['r-visible:.']);
    expect(trees('rg KEY src lib')).toEqual(['r-visible:src', 'r-visible:lib']);
    expect(trees('rg --hidden KEY')).toEqual(['r:.']);
    expect(trees('rg -uu KEY')).toEqual(['r:.']);
    expect(trees('rg -u -u KEY')).toEqual(['r:.']);
    expect(trees('rg -u KEY')).toEqual(['r-visible:.']);
    expect(trees('rg -. -L KEY')).toEqual(['r-follow:.']);
    expect(trees("rg -g '*.ts' -g '!*.env' KEY")).toEqual(['r-visible:. +*.ts -*.env']);
    expect(trees('rg --files')).toEqual([]);
  });
  it('diff of folders: their own files, every level with -r', () => {
    expect(trees('diff a b')).toEqual(['flat-follow:a', 'flat-follow:b']);
    expect(trees('diff -rN a b')).toEqual(['r-follow:a', 'r-follow:b']);
    expect(trees('diff -r --no-dereference a b')).toEqual(['r:a', 'r:b']);
  });
  it('programs reading a folder to pack or copy it', () => {
    expect(trees('tar -czf out.tgz src')).toEqual(['r:src']);
    expect(trees('tar -czf out.tgz --no-recursion src')).toEqual([]);
    expect(trees('zip -r out.zip src')).toEqual(['r-follow:src']);
    expect(trees('zip out.zip src')).toEqual([]);
    expect(trees('cp -a src dest')).toEqual(['r:src']);
    expect(trees('cp -rL src dest')).toEqual(['r-follow:src']);
    expect(trees('cp src/a dest')).toEqual([]);
    expect(trees('rsync -av . host:backup')).toEqual(['r:.']);
    expect(trees('scp -r certs host:')).toEqual(['r-follow:certs']);
    expect(trees('7z a out.7z src docs')).toEqual(['r:src', 'r:docs']);
  });
});
