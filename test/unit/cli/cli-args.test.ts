import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/main/shells/cli/main';

// The dispatcher and every subcommand's flags, as a person typing them sees them: strict flags, `--`, and a
// suggestion for a mistyped flag, command, subcommand or value. Bad arguments exit 2 with the reason and the usage
// on stderr and nothing on stdout.

let root: string;
let project: string;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-cli-args-')));
  project = path.join(root, 'project');
  fs.mkdirSync(project);
  fs.mkdirSync(path.join(root, 'home'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const env = { PATH: process.env.PATH, HOME: path.join(root, 'home'), GATEHOUSE_HOME: path.join(root, 'gh') };
  const code = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l), env, cwd: project });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const READ = '{"tool":"read_file","input":{"path":"README.md"}}';

describe('gatehouse flags', () => {
  it('suggests the flag meant for a mistyped one, and shows the usage', async () => {
    const r = await cli('permissions', 'check', '--projct', project, '--call', READ);
    expect(r).toMatchObject({ code: 2, out: '' });
    expect(r.err).toContain('gatehouse permissions: unknown option --projct (did you mean --project?)');
    expect(r.err).toContain('Usage: gatehouse permissions check');
    expect((await cli('rules', 'list', '--jsn')).err).toContain('did you mean --json?');
    expect((await cli('trust', 'set', project, '--scop', 'directory')).err).toContain('did you mean --scope?');
    expect((await cli('sessions', 'list', '--projects', project)).err).toContain('did you mean --project?');
    expect((await cli('web', '--prot', '0')).err).toContain('did you mean --port?');
    // Nothing near: no guess, the usage says what there is.
    const far = await cli('permissions', 'check', '--zzzzzzzz', '--call', READ);
    expect(far.err).toContain('unknown option --zzzzzzzz\n');
  });

  it('suggests the command, subcommand, action or value meant', async () => {
    expect(await cli('permisions', 'check')).toMatchObject({
      code: 2,
      out: '',
      err: expect.stringContaining('unknown command "permisions" (did you mean "permissions"?)'),
    });
    expect((await cli('--versoin')).err).toContain('unknown option --versoin (did you mean --version?)');
    expect((await cli('permissions', 'chek')).err).toContain('unknown subcommand "chek" (did you mean "check"?)');
    expect((await cli('rules', 'lst')).err).toContain('unknown subcommand "lst" (did you mean "list"?)');
    expect((await cli('trust', 'stauts', project)).err).toContain('unknown action "stauts" (did you mean "status"?)');
    expect((await cli('sessions', 'delte', 'x')).err).toContain('unknown action "delte" (did you mean "delete"?)');
    const mode = await cli('permissions', 'check', '--call', READ, '--mode', 'acceptedits');
    expect(mode).toMatchObject({
      code: 2,
      err: expect.stringContaining(
        '--mode must be strict, default, acceptEdits, auto or bypassPermissions, not "acceptedits" (did you mean "acceptEdits"?)',
      ),
    });
    expect((await cli('permissions')).err).toContain('missing subcommand (check)');
  });

  it('refuses a missing value, a value on a switch and a flag given twice, naming the flag', async () => {
    expect(await cli('permissions', 'check', '--call')).toMatchObject({
      code: 2,
      out: '',
      err: expect.stringContaining('--call needs a value'),
    });
    // The next flag is not taken as the value: `--project --call ...` would otherwise check the wrong folder.
    const swallowed = await cli('permissions', 'check', '--project', '--call', READ);
    expect(swallowed).toMatchObject({ code: 2, out: '' });
    expect(swallowed.err).toContain('--project needs a value, got the option "--call"');
    expect((await cli('rules', 'list', '--json=yes')).err).toContain('--json takes no value');
    const twice = await cli('permissions', 'check', '--project', project, '--project', root, '--call', READ);
    expect(twice).toMatchObject({ code: 2, out: '', err: expect.stringContaining('--project given more than once') });
  });

  it('takes --flag=value, repeatable flags and -- before an argument that starts with "-"', async () => {
    const r = await cli(
      'permissions',
      'check',
      `--project=${project}`,
      `--call=${READ}`,
      '--deny',
      'Read(README.md)',
      '--deny=Read(x)',
    );
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ decision: 'deny', source: 'cli', rule: 'Read(README.md)' });
    // A folder whose name starts with dashes: after --, it is a folder, and --help after -- is not a request for help.
    fs.mkdirSync(path.join(project, '--help'));
    const status = await cli('trust', 'status', '--json', '--', '--help');
    expect(status.code).toBe(0);
    expect(JSON.parse(status.out)).toMatchObject({ path: path.join(project, '--help'), trusted: false });
    expect((await cli('trust', 'status', '--help')).out).toMatch(
      /^gatehouse trust: .*\n[^]*\nUsage:\n {2}gatehouse trust set /,
    );
    // Without --, a dash-word is an option; the error says how to pass it.
    expect((await cli('trust', 'status', '-x')).err).toContain(
      'unknown option -x; a value or prompt that starts with "-" goes after --',
    );
  });

  it('--version and --help print and exit 0; no command prints the help and exits 2', async () => {
    expect(await cli('--version')).toMatchObject({ code: 0, out: expect.stringMatching(/^\d+\.\d+\.\d+/) });
    const help = await cli('--help');
    expect(help.code).toBe(0);
    for (const name of ['permissions', 'rules', 'run', 'rpc', 'sessions', 'trust', 'web'])
      expect(help.out).toContain(`  ${name} `);
    expect((await cli()).code).toBe(2);
  });
});
