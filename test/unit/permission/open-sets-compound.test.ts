import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PermissionMode } from '../../../src/shared/permission';
import { analyzeCommand } from '../../../src/main/core/shell-analysis/analyze';
import { cmd, makeFixture, type Fixture } from './fixture';

/**
 * Contract "Assurance": compound bodies are judged wherever they appear. `coproc`, `time` and `!` are reserved
 * words that bash allows before a compound command; the commands in the body run and must meet the deny list,
 * the rules and the read-only set like any others.
 */
type Expect = 'allow' | 'ask' | 'deny';

let fx: Fixture;
beforeEach(() => {
  fx = makeFixture();
  fx.write('sub/dir/a.txt', 'a\n');
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

/** Every spelling of a compound command around `body`. */
function compounds(body: string): string[] {
  return [
    `{ ${body}; }`,
    `{\n  ${body}\n}`,
    `( ${body} )`,
    `if true; then ${body}; fi`,
    `if false; then :; else ${body}; fi`,
    `while true; do ${body}; done`,
    `until false; do ${body}; done`,
    `for i in 1 2; do ${body}; done`,
    `for ((i = 0; i < 1; i++)); do ${body}; done`,
    `case x in x) ${body} ;; esac`,
    `select x in a; do ${body}; done`,
  ];
}

const prefixes = [
  'coproc ',
  'coproc NAME ',
  'coproc  worker\t',
  'time ',
  'time -p ',
  'time -- ',
  '! ',
  'time ! ',
  '! time ',
];

describe('a reserved word before a compound command: the body is judged', () => {
  it('the deny list sees a denied command in the body, in every spelling and position', async () => {
    const rows: [string, Expect, PermissionMode][] = [];
    for (const prefix of prefixes) {
      for (const compound of compounds('sudo reboot')) {
        if (prefix.startsWith('coproc') && compound.startsWith('select')) continue; // select reads the terminal
        rows.push([`${prefix}${compound}`, 'deny', 'bypassPermissions']);
      }
    }
    rows.push(
      ['ls; coproc { sudo reboot; }', 'deny', 'bypassPermissions'],
      ['true && time { sudo reboot; }', 'deny', 'bypassPermissions'],
      ['echo x | coproc { sudo reboot; }', 'deny', 'bypassPermissions'],
      ['echo $(time { sudo reboot; })', 'deny', 'bypassPermissions'],
      ["bash -c 'coproc { sudo reboot; }'", 'deny', 'bypassPermissions'],
      ['f() { coproc { sudo reboot; }; }', 'deny', 'bypassPermissions'],
      ['coproc { sudo reboot; } 2>/dev/null', 'deny', 'bypassPermissions'],
      ['coproc time { sudo reboot; }', 'deny', 'bypassPermissions'],
      ['coproc { coproc { sudo reboot; }; }', 'deny', 'bypassPermissions'],
      ['! ! { sudo reboot; }', 'deny', 'bypassPermissions'],
      ['! ! sudo reboot', 'deny', 'bypassPermissions'],
    );
    await check(rows);
  });
  it('rules see the body: a deny rule denies, an allow rule for the body alone does not allow more', async () => {
    fx.settings('user', { deny: ['Bash(curl:*)'], allow: ['Bash(npm test)'] });
    await check([
      ['coproc { curl -s https://example.com; }', 'deny', 'bypassPermissions'],
      ['time ( curl https://example.com )', 'deny'],
      ['! if true; then curl x; fi', 'deny'],
      ['time { npm test; }', 'allow'],
      ['time { npm test; rm -rf src; }', 'ask'],
    ]);
  });
  it('a read-only body stays read-only; a body that writes does not', async () => {
    await check([
      ['time { ls; cat README.md; }', 'allow'],
      ['time -p ( grep -rn x src )', 'allow'],
      ['! { grep -q x README.md; }', 'allow'],
      ['time { rm -rf src; }', 'ask'],
      ['coproc { rm -rf src; }', 'ask'],
      ['time { echo x > README.md; }', 'ask'],
      ['! { cat .env; }', 'ask'],
    ]);
  });
  it('a coproc body runs in a subshell: its cd does not move the commands after it', async () => {
    await check([
      ['coproc { cd sub; }; cat README.md', 'allow'],
      ['coproc NAME { cd sub/dir; }; cat ../../README.md', 'ask'], // read from the project root: outside
      ['coproc ( cd sub ); cat README.md', 'allow'],
      ['time { cd sub; }; cat README.md', 'ask'], // time runs in this shell: where it went is not followed
    ]);
  });
  it('a coproc reads what the shell writes to it later: a shell there runs code the text does not show', async () => {
    await check([
      ["coproc bash; echo 'sudo reboot' >&63", 'ask', 'bypassPermissions'],
      ['coproc { sh; }', 'ask', 'bypassPermissions'],
      ['coproc NAME { python3; }', 'ask', 'bypassPermissions'],
    ]);
  });
  it('the words stay words where they are not reserved', () => {
    const argvs = (c: string): string[][] => analyzeCommand(c).commands.map((x) => x.argv);
    expect(argvs('echo time { x; }')).toEqual([['echo', 'time', '{', 'x'], ['}']]);
    expect(argvs("echo coproc '{' ls")).toEqual([['echo', 'coproc', '{', 'ls']]);
    expect(argvs('time ls -la')).toEqual([['ls', '-la']]);
    expect(analyzeCommand('time { ls; }').readable).toBe(true);
    expect(analyzeCommand('coproc NAME (ls)').readable).toBe(true);
  });
});
