import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PermissionMode } from '../../../src/shared/permission';
import { cmd, makeFixture, read, write, type Fixture } from './fixture';

/**
 * Friction the peers do not have (issue 44, item 7): commands that are plainly read-only, or plainly what a rule
 * names, are judged so through the same tables as everything else, never as exceptions.
 */
type Expect = 'allow' | 'ask' | 'deny';

let fx: Fixture;
beforeEach(() => {
  fx = makeFixture();
  fx.write('notes/a.txt', 'a\n');
});
afterEach(() => fx.cleanup());

async function check(rows: [command: string, expected: Expect, mode?: PermissionMode][]): Promise<void> {
  for (const [command, expected, mode] of rows) {
    const e = await fx.engine({ mode: mode ?? 'default' });
    const d = await e.decide(cmd(command));
    expect
      .soft(d.decision, `${JSON.stringify(command)} (${mode ?? 'default'}): ${d.source}: ${d.reason}`)
      .toBe(expected);
  }
}

describe('here-documents whose delimiter is partly quoted are plain text, as bash reads them', () => {
  it('any quoted part of the delimiter makes the body text: a substitution in it never runs', async () => {
    const body = '\n$(sudo reboot)\n`rm -rf /`\nEOF';
    await check(
      ['E"O"F', "E'OF'", "'E'OF", '"E"OF', "E''OF", '""EOF', 'EO\\F', "E'O'F", '"E""OF"'].flatMap(
        (d): [string, Expect, PermissionMode?][] => [
          [`cat <<${d}${body}`, 'allow', 'bypassPermissions'],
          [`cat <<${d}${body}`, 'allow'],
          [`cat <<-${d}\n\t$(sudo reboot)\n\tEOF`, 'allow', 'bypassPermissions'],
          [`cat <<${d}${body}\nsudo ls`, 'deny', 'bypassPermissions'], // the line after the delimiter runs
        ],
      ),
    );
  });
  it('an unquoted delimiter still expands its body, and a shell still runs a quoted body as its script', async () => {
    await check([
      ['cat <<EOF\n$(sudo reboot)\nEOF', 'deny', 'bypassPermissions'],
      ['bash <<E"O"F\nsudo reboot\nEOF', 'deny', 'bypassPermissions'],
      ['cat <<E"O"F | sh\nsudo reboot\nEOF', 'deny', 'bypassPermissions'],
    ]);
  });
  it('a line spelled like the quoted delimiter is body text: only the unquoted word ends it', async () => {
    await check([
      ['cat <<E"O"F\nE"O"F\nsudo reboot\nEOF', 'allow', 'bypassPermissions'],
      ['cat <<"E"OF\n"E"OF\nEOF\nls', 'allow'],
    ]);
  });
  it('`<<` that is not a here-document is left alone', async () => {
    await check([
      ['echo \'<<E"O"F\' x', 'allow'],
      ['echo $(( 1 << 2 ))', 'allow'],
      ['cat <<< "E\'O\'F"', 'allow'],
    ]);
  });
});

describe('read-only tables hold the plain encoders and formatters', () => {
  it('base64, base32 and numfmt print; a second operand or an unknown option is not read-only', async () => {
    await check([
      ['base64 README.md', 'allow'],
      ['base64 -d notes/a.txt', 'allow'],
      ['base64 -w 0 README.md | base64 --decode', 'allow'],
      ['base32 README.md', 'allow'],
      ['echo hi | base64', 'allow'],
      ['numfmt --to=iec 1048576', 'allow'],
      ['numfmt --from=iec --to=si 1K 2M', 'allow'],
      ['du -b src | numfmt --to=iec --field=1', 'allow'],
      ['basenc --base16 README.md', 'allow'],
      ['xxd README.md | head', 'allow'],
      ['xxd -r -p notes/a.txt', 'allow'],
      ['fold -w 40 README.md', 'allow'],
      ['fmt -w 72 README.md', 'allow'],
      ['expand -t 4 README.md; unexpand -a README.md', 'allow'],
      ['paste -d, README.md notes/a.txt', 'allow'],
      ['comm -12 README.md notes/a.txt', 'allow'],
      ['join -t, README.md notes/a.txt', 'allow'],
      ['tsort notes/a.txt', 'allow'],
      ['xxd README.md out.hex', 'ask'], // the second operand is written
      ['comm README.md notes/a.txt extra', 'ask'],
      ['base64 README.md out.txt', 'ask'],
      ['base64 --no-such README.md', 'ask'],
      [`base64 ${'{outside}'}/secret.txt`.replace('{outside}', fx.outside), 'ask'],
      ['base64 .env', 'ask'], // a secret file: the defaults ask
    ]);
  });
  it('a glob that matches nothing reaches the program as its own text and names no file', async () => {
    await check([
      ['grep -n x *.txt', 'allow'],
      ['grep -rn TODO *.nomatch src', 'allow'],
      ['cat *.md *.nomatch', 'allow'],
      ['grep -n x notes/*.txt', 'allow'],
      ['wc -l link-out/*.txt', 'ask'], // it matches, through a link pointing out
      ['cat .en*', 'ask'], // it matches a secret file
    ]);
  });
});

describe('a rule naming the read_file tool applies to that one tool only', () => {
  it("a raw read_file deny does not judge a command's files; a Read deny does", async () => {
    fx.settings('user', { deny: ['read_file(README.md)'] });
    const e = await fx.engine();
    expect(await e.decide(read('README.md'))).toMatchObject({ decision: 'deny', rule: 'read_file(README.md)' });
    expect((await e.decide(cmd('cat README.md'))).decision).toBe('allow');
    expect((await e.decide(cmd('grep -n demo README.md < README.md'))).decision).toBe('allow');
    fx.settings('user', { deny: ['Read(README.md)'] });
    const f = await fx.engine();
    expect(await f.decide(cmd('cat README.md'))).toMatchObject({ decision: 'deny', rule: 'Read(README.md)' });
    expect(await f.decide(cmd('wc -l < README.md'))).toMatchObject({ decision: 'deny', rule: 'Read(README.md)' });
  });
  it('a bare read_file deny, and a read_file ask, leave commands alone', async () => {
    fx.settings('user', { deny: ['read_file'], ask: ['read_file(src/**)'] });
    const e = await fx.engine();
    expect((await e.decide(read('src/index.ts'))).decision).toBe('deny');
    expect((await e.decide(cmd('cat src/index.ts'))).decision).toBe('allow');
    expect((await e.decide(cmd('head -n 1 $(ls src/*.ts)'))).decision).not.toBe('deny');
  });
  it('likewise a raw write_file rule does not judge redirections; an Edit rule does', async () => {
    fx.settings('user', { deny: ['write_file(src/gen/**)'] });
    const e = await fx.engine({ mode: 'bypassPermissions' });
    expect((await e.decide(write('src/gen/a.ts'))).decision).toBe('deny');
    expect((await e.decide(cmd('echo x > src/gen/a.ts'))).decision).toBe('allow');
    fx.settings('user', { deny: ['Edit(src/gen/**)'] });
    const f = await fx.engine({ mode: 'bypassPermissions' });
    expect(await f.decide(cmd('echo x > src/gen/a.ts'))).toMatchObject({ decision: 'deny', rule: 'Edit(src/gen/**)' });
  });
});
