import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/main/shells/cli/commands';
import { codeCacheEnv } from '../support/code-cache-env';
import { runGatehouse } from './agent-helpers';

// The built `gatehouse` as a person meets it: each subcommand's --help (description, options, examples), a
// mistyped choice answered with the one meant, and a missing --project folder named before anything else (before
// the model key, a worker, the other arguments).

let root: string;
let env: NodeJS.ProcessEnv;
beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-cli-help-')));
  fs.mkdirSync(path.join(root, 'home'));
  fs.mkdirSync(path.join(root, 'project'));
  // No model key anywhere: a command that looked for one before the folder would say so first.
  env = {
    PATH: process.env.PATH,
    HOME: path.join(root, 'home'),
    GATEHOUSE_HOME: path.join(root, 'gh'),
    GATEHOUSE_POLICY: path.join(root, 'no-policy.yaml'),
    ...codeCacheEnv(),
  };
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const gatehouse = (...args: string[]) => runGatehouse(args, env, path.join(root, 'project'));

describe('gatehouse <command> --help', () => {
  it.each(COMMANDS.map((c) => c.name))('%s: what it is for, its options and two examples', async (name) => {
    const { code, stdout, stderr } = await gatehouse(name, '--help');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const [head = '', ...rest] = stdout.split('\n\n');
    expect(head).toBe(`gatehouse ${name}: ${COMMANDS.find((c) => c.name === name)!.summary}`);
    expect(rest[0]!.length).toBeGreaterThan(60); // the description
    const section = (title: string): string[] =>
      (rest.find((s) => s.startsWith(`${title}:\n`)) ?? '').split('\n').slice(1);
    expect(section('Usage').filter((l) => l.startsWith(`  gatehouse ${name}`)).length).toBeGreaterThan(0);
    expect(section('Options')).toContain('  --help, -h              show this help');
    expect(
      section('Examples').filter((l) => /^ {2}\S/.test(l) && l.includes(`gatehouse ${name}`)).length,
    ).toBeGreaterThanOrEqual(2);
  });

  it('`gatehouse help NAME` is the same page', async () => {
    expect((await gatehouse('help', 'trust')).stdout).toBe((await gatehouse('trust', '--help')).stdout);
  });

  it('lists every option of a command with its values', async () => {
    const { stdout } = await gatehouse('rules', 'add', '--help');
    for (const flag of ['--project DIR', '--json', '--scope SCOPE', '--behavior B'])
      expect(stdout).toContain(`  ${flag}`);
    expect(stdout).toMatch(/one\s+of:\s+user,\s+project,\s+local/);
  });
});

describe('a mistyped value of an option with choices', () => {
  it('trust set --scope dir: did you mean "directory"?', async () => {
    const r = await gatehouse('trust', 'set', '.', '--scope', 'dir');
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr.split('\n')[0]).toBe(
      'gatehouse trust: --scope must be directory, parent or never, not "dir" (did you mean "directory"?)',
    );
    expect(r.stderr).toContain('(`gatehouse trust --help` for the options and examples)');
    expect(fs.existsSync(path.join(root, 'gh', 'trust.json'))).toBe(false);
  });

  it.each([
    [['rules', 'add', '--scope', 'proj', '--behavior', 'deny', 'Read(x)'], '--scope', 'project'],
    [['rules', 'add', '--scope', 'local', '--behavior', 'dney', 'Read(x)'], '--behavior', 'deny'],
    [['run', '--mode', 'accept', 'hi'], '--mode', 'acceptEdits'],
    [['run', '--output', 'JSON', 'hi'], '--output', 'json'],
    [['mcp', 'add', 'x', '--scope', 'lcoal', '--url', 'http://127.0.0.1:1/'], '--scope', 'local'],
    [['trust', 'set', '.', '--scope', 'directory', '--without', 'hook'], '--without', 'hooks'],
  ])('%j suggests the value meant', async (args, flag, meant) => {
    const r = await gatehouse(...args);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr.split('\n')[0]).toMatch(
      new RegExp(`^gatehouse \\w+: ${flag} must be .*\\(did you mean "${meant}"\\?\\)$`),
    );
  });
});

describe('a missing --project folder is named first', () => {
  const missing = '/nonexistent/gh-project';
  it.each([
    ['run', '--project', missing, 'hello'],
    ['rpc', '--project', missing],
    ['web', '--project', missing, '--port', '0'],
    ['doctor', '--project', missing],
    ['hooks', 'list', '--project', missing],
    ['skills', 'list', '--project', missing],
    ['rules', 'list', '--project', missing],
    ['rules', 'add', '--project', missing, '--scope', 'local', '--behavior', 'deny', 'Read(x)'],
    ['mcp', 'list', '--project', missing],
    ['mcp', 'test', 'nothing', '--project', missing],
    ['mcp', 'add', 'x', '--project', missing, '--scope', 'local', '--url', 'http://127.0.0.1:1/'],
    ['checkpoints', 'list', '--project', missing],
    ['permissions', 'check', '--project', missing, '--call', '{"tool":"read_file","input":{"path":"a"}}'],
  ])('gatehouse %s %s', async (...args) => {
    const r = await gatehouse(...args);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(`gatehouse ${args[0]}: project folder not found: ${missing}`);
    expect(r.stderr).not.toMatch(/API key|worker/i);
    expect(r.stdout).toBe('');
  });
});
