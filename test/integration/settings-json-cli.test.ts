import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codeCacheEnv } from '../support/code-cache-env';
import { CLI } from './agent-helpers';

// A Claude Code user's `.gatehouse/settings.json`, through the built `gatehouse` as real processes on real files: its
// deny rule is enforced; a broken one fails closed and fails `rules list`; a settings file where Gatehouse does not
// look (`~/.gatehouse/settings.json`) is reported by `rules list` (exit 1) and its deny rule still holds.

let root: string;
let project: string;
let home: string;
let configDir: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-settings-json-cli-')));
  project = path.join(root, 'project');
  home = path.join(root, 'home');
  configDir = path.join(root, 'config');
  for (const d of [path.join(project, '.gatehouse'), home, configDir]) fs.mkdirSync(d, { recursive: true });
  env = {
    PATH: process.env.PATH,
    HOME: home,
    GATEHOUSE_HOME: configDir,
    GATEHOUSE_POLICY: path.join(root, 'policy.yaml'),
    ...codeCacheEnv(),
  };
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function gatehouse(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env, cwd: project, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function check(
  command: string,
): Promise<{ decision: string; source: string; rule: string | null; reason: string }> {
  const call = JSON.stringify({ tool: 'run_command', input: { command } });
  const r = await gatehouse([
    'permissions',
    'check',
    '--project',
    project,
    '--mode',
    'bypassPermissions',
    '--call',
    call,
  ]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { decision: string; source: string; rule: string | null; reason: string };
}

const projectJson = (): string => path.join(project, '.gatehouse', 'settings.json');

describe('.gatehouse/settings.json', () => {
  it('its deny rule is enforced and listed with its file; rules list succeeds', async () => {
    fs.writeFileSync(projectJson(), JSON.stringify({ permissions: { deny: ['Bash(rm:*)'] } }, null, 2));
    expect(await check('rm -rf build')).toMatchObject({ decision: 'deny', source: 'project', rule: 'Bash(rm:*)' });
    expect(await check('ls')).toMatchObject({ decision: 'allow' });
    const list = await gatehouse(['rules', 'list', '--project', project]);
    expect(list.code, list.stdout).toBe(0);
    expect(list.stdout).toContain(`deny  Bash(rm:*)  [project: ${projectJson()}]`);
    expect(list.stdout).not.toContain('No rules.');
  }, 60_000);

  it('broken (a trailing comma): a JSON error with its line in rules list, exit 1; every allowed call asks', async () => {
    fs.writeFileSync(projectJson(), '{\n  "permissions": {\n    "deny": ["Bash(rm:*)",]\n  }\n}\n');
    const list = await gatehouse(['rules', 'list', '--project', project]);
    expect(list.code).toBe(1);
    expect(list.stdout).toContain(
      `error: ${projectJson()}:3: not valid JSON: a value was expected (a trailing comma?)`,
    );
    const json = await gatehouse(['rules', 'list', '--project', project, '--json']);
    expect(json.code).toBe(1);
    expect((JSON.parse(json.stdout) as { problems: unknown[] }).problems).toEqual([
      expect.objectContaining({ file: projectJson(), kind: 'file', line: 3, column: 27 }),
    ]);
    // Its deny rules cannot be known: nothing runs without a person, even a read in bypass mode.
    expect(await check('rm -rf build')).toMatchObject({ decision: 'ask' });
    const ls = await check('ls');
    expect(ls).toMatchObject({ decision: 'ask', source: 'project' });
    expect(ls.reason).toMatch(/deny and ask rules are unknown/);
  }, 60_000);
});

describe('a settings file Gatehouse does not read', () => {
  it('~/.gatehouse/settings.json: rules list names it and the file meant, exit 1; its deny holds, its allow does not', async () => {
    const stray = path.join(home, '.gatehouse', 'settings.json');
    fs.mkdirSync(path.dirname(stray));
    fs.writeFileSync(stray, JSON.stringify({ permissions: { deny: ['Bash(rm:*)'], allow: ['Bash(curl:*)'] } }));
    const list = await gatehouse(['rules', 'list', '--project', project]);
    expect(list.code).toBe(1);
    expect(list.stdout).toContain(
      `error: ${stray}: not a settings file Gatehouse reads: did you mean ${path.join(configDir, 'settings.json')}?`,
    );
    expect(list.stdout).toContain('deny  Bash(rm:*)');
    expect(list.stdout).not.toContain('Bash(curl:*)');
    expect(await check('rm -rf build')).toMatchObject({ decision: 'deny', rule: 'Bash(rm:*)' });
    // Moved where it belongs, it is a settings file like any other: no error, its allow rule loads.
    fs.renameSync(stray, path.join(configDir, 'settings.json'));
    const moved = await gatehouse(['rules', 'list', '--project', project]);
    expect(moved.code, moved.stdout).toBe(0);
    expect(moved.stdout).toContain('allow Bash(curl:*)');
  }, 60_000);
});
