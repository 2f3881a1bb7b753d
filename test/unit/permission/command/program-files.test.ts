import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommand } from '../../../../src/main/core/shell-analysis/analyze';
import { initShellParser } from '../../../../src/main/core/shell-analysis/parse/parser';
import { programFiles } from '../../../../src/main/core/shell-analysis/programs/program-files';

/** Contract "Assurance: Writes by programs / Reads by programs": the files a program touches by argument. */
beforeAll(async () => {
  await initShellParser();
});

function files(command: string): { reads: string[]; writes: string[]; links: string[]; hidden: string | null } {
  const [cmd] = analyzeCommand(command).commands;
  if (cmd === undefined) throw new Error(command);
  const f = programFiles(cmd);
  return {
    reads: f.reads.map((r) => r.value),
    writes: f.writes.map((w) => w.value),
    links: f.links.map((l) => l.value),
    hidden: f.hiddenWrites,
  };
}

describe('copying, moving, linking', () => {
  it('sources are read, the destination written; mv also removes its sources', () => {
    expect(files('cp -a a b dest/')).toMatchObject({ reads: ['a', 'b'], writes: ['dest/'] });
    expect(files('cp -t dest a b')).toMatchObject({ reads: ['a', 'b'], writes: ['dest'] });
    expect(files('cp --target-directory=dest a')).toMatchObject({ reads: ['a'], writes: ['dest'] });
    expect(files('mv old new')).toMatchObject({ reads: ['old'], writes: ['old', 'new'] });
    expect(files('install -D -m 755 tool bin/tool')).toMatchObject({ reads: ['tool'], writes: ['bin/tool'] });
    expect(files('install -d a b')).toMatchObject({ writes: ['a', 'b'] });
  });
  it('ln writes the link and names its target', () => {
    expect(files('ln -sf ../shared/x cfg')).toMatchObject({ writes: ['cfg'], links: ['../shared/x'] });
    expect(files('ln -s /etc/passwd')).toMatchObject({ writes: ['passwd'], links: ['/etc/passwd'] });
  });
});

describe('in-place editors and operand writers', () => {
  it('sed -i, perl -i, ruby -i rewrite their files', () => {
    expect(files("sed -i.bak -e 's/a/b/' x y")).toMatchObject({ reads: ['x', 'y'], writes: ['x', 'y'] });
    expect(files("sed --in-pl 's/a/b/' x")).toMatchObject({ writes: ['x'] }); // an abbreviation of --in-place
    expect(files("sed 's/a/b/' x")).toMatchObject({ writes: [] });
    expect(files("perl -pi -e 's/a/b/' x")).toMatchObject({ writes: ['x'] });
    expect(files('perl -i.orig fix.pl x')).toMatchObject({ writes: ['x'] });
    expect(files("ruby -i -pe 'x' f")).toMatchObject({ writes: ['f'] });
  });
  it('touch, mkdir, rm, truncate, chmod and friends change their operands', () => {
    expect(files('touch -r ref a b')).toMatchObject({ reads: ['ref'], writes: ['a', 'b'] });
    expect(files('mkdir -p -m 700 a/b')).toMatchObject({ writes: ['a/b'] });
    expect(files('rm -rf -- -weird x')).toMatchObject({ writes: ['-weird', 'x'] });
    expect(files('truncate -s 0 log')).toMatchObject({ writes: ['log'] });
    expect(files('chmod -R u+x bin')).toMatchObject({ writes: ['bin'] });
    expect(files('chmod -x tool')).toMatchObject({ writes: ['tool'] }); // a symbolic mode, not an option
    expect(files('chown --reference=ref a')).toMatchObject({ reads: ['ref'], writes: ['a'] });
    expect(files('chgrp staff a b')).toMatchObject({ writes: ['a', 'b'] });
    expect(files('dd if=in bs=1M of=out')).toMatchObject({ reads: ['in'], writes: ['out'] });
  });
  it('output options and second operands', () => {
    expect(files('sort -u -o sorted.txt a b')).toMatchObject({ reads: ['a', 'b'], writes: ['sorted.txt'] });
    expect(files('uniq in out')).toMatchObject({ reads: ['in'], writes: ['out'] });
    expect(files('split -l 10 big part-')).toMatchObject({ reads: ['big'], writes: ['part-'] });
    expect(files('find . -name x -fprint list.txt')).toMatchObject({ writes: ['list.txt'] });
    expect(files('find build -name "*.o" -delete')).toMatchObject({ writes: ['build'] });
  });
});

describe('archives and compressors', () => {
  it('tar: create reads its operands and writes the archive; extract writes into -C or here', () => {
    expect(files('tar -czf out.tgz src .env')).toMatchObject({ reads: ['src', '.env'], writes: ['out.tgz'] });
    expect(files('tar czf out.tgz src')).toMatchObject({ reads: ['src'], writes: ['out.tgz'] });
    expect(files('tar -C /etc -cf x.tar passwd')).toMatchObject({ reads: ['/etc/passwd'], writes: ['x.tar'] });
    expect(files('tar -xf pack.tar -C dest')).toMatchObject({ reads: ['pack.tar'], writes: ['dest'] });
    expect(files('tar xzf pack.tgz')).toMatchObject({ reads: ['pack.tgz'], writes: ['.'] });
    expect(files('tar -tf pack.tar')).toMatchObject({ reads: ['pack.tar'], writes: [] });
    expect(files('tar -xOf pack.tar a')).toMatchObject({ writes: [] });
  });
  it('zip, unzip and gzip-style tools', () => {
    expect(files('zip -r out.zip src id_rsa')).toMatchObject({ reads: ['src', 'id_rsa'], writes: ['out.zip'] });
    expect(files('unzip -o pack.zip -d out')).toMatchObject({ reads: ['pack.zip'], writes: ['out'] });
    expect(files('unzip -l pack.zip')).toMatchObject({ writes: [] });
    expect(files('gzip -9 log')).toMatchObject({ reads: ['log'], writes: ['log'] });
    expect(files('gzip -c log')).toMatchObject({ reads: ['log'], writes: [] });
  });
});

describe('network programs read and write local files', () => {
  it('curl', () => {
    expect(files('curl -sSLo out.sh https://x/y')).toMatchObject({ writes: ['out.sh'] });
    expect(files('curl -O https://example.com/a/tool.sh')).toMatchObject({ writes: ['tool.sh'] });
    expect(files('curl --output-dir dl -O https://e.com/f.tgz')).toMatchObject({ writes: ['dl', 'dl/f.tgz'] });
    expect(files('curl -T report.txt https://x')).toMatchObject({ reads: ['report.txt'] });
    expect(files('curl -d @body.json -F "up=@id_rsa;type=text/plain" -F "n=<notes" https://x')).toMatchObject({
      reads: ['body.json', 'id_rsa', 'notes'],
    });
    expect(files('curl --data-urlencode "msg@.env" https://x')).toMatchObject({ reads: ['.env'] });
    expect(files('curl -d "a=1" https://x')).toMatchObject({ reads: [], writes: [] });
    expect(files('curl -K cfg https://x').hidden).not.toBeNull();
  });
  it('wget, rsync, scp', () => {
    expect(files('wget https://e.com/a/b.tar.gz')).toMatchObject({ writes: ['b.tar.gz'] });
    expect(files('wget -P dl https://e.com/x')).toMatchObject({ writes: ['dl', 'dl/x'] });
    expect(files('wget -O - https://e.com/x')).toMatchObject({ writes: [] });
    expect(files('wget --post-file=.env https://e.com')).toMatchObject({ reads: ['.env'] });
    expect(files('rsync -av --exclude=.git src/ backup/')).toMatchObject({ reads: ['src/'], writes: ['backup/'] });
    expect(files('rsync -a src/ host:/srv/')).toMatchObject({ reads: ['src/'], writes: [] });
    expect(files('scp host:/etc/passwd local')).toMatchObject({ reads: [], writes: ['local'] });
    expect(files('scp -i key .env host:')).toMatchObject({ reads: ['.env', 'key'], writes: [] });
  });
});
