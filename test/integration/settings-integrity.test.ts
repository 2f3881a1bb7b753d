import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseSettingsText } from '../../src/main/core/settings/parse-settings';
import { codeCacheEnv } from '../support/code-cache-env';
import { CLI } from './agent-helpers';

// State integrity and hostile settings files (issue 12), with the built `gatehouse` as real processes on real files.

let root: string;
let project: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-integrity-')));
  project = path.join(root, 'project');
  fs.mkdirSync(path.join(project, '.gatehouse'), { recursive: true });
  env = {
    PATH: process.env.PATH,
    HOME: path.join(root, 'home'),
    GATEHOUSE_HOME: path.join(root, 'config'),
    GATEHOUSE_POLICY: path.join(root, 'policy.yaml'),
    ...codeCacheEnv(),
  };
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function gatehouse(
  args: string[],
  options: { env?: NodeJS.ProcessEnv } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: options.env ?? env,
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const settingsFile = (): string => path.join(project, '.gatehouse', 'settings.yaml');
const check = async (call: unknown, extra: string[] = [], dir = project) => {
  const r = await gatehouse(['permissions', 'check', '--project', dir, '--call', JSON.stringify(call), ...extra]);
  expect(r.code, r.stderr).toBe(0);
  return {
    ...(JSON.parse(r.stdout) as { decision: string; source: string; rule: string | null; reason: string }),
    stderr: r.stderr,
  };
};
const ls = { tool: 'run_command', input: { command: 'ls' } };

describe('parallel writers lose nothing', () => {
  it('30 `gatehouse rules add` processes at once: every rule is in the file, each said "added"', async () => {
    fs.writeFileSync(settingsFile(), '# team rules: this comment stays\npermissions:\n  allow: []\n');
    const rules = Array.from({ length: 30 }, (_, i) => `Bash(task-${i}:*)`);
    const runs = await Promise.all(
      rules.map((rule, i) =>
        gatehouse([
          'rules',
          'add',
          '--scope',
          i % 3 === 0 ? 'local' : 'project',
          '--behavior',
          'allow',
          rule,
          '--project',
          project,
        ]),
      ),
    );
    for (const r of runs) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^added allow Bash\(task-\d+:\*\) to /);
    }
    const projectRules = parseSettingsText('p', fs.readFileSync(settingsFile(), 'utf8'));
    const localRules = parseSettingsText(
      'l',
      fs.readFileSync(path.join(project, '.gatehouse', 'settings.local.yaml'), 'utf8'),
    );
    if (!projectRules.ok || !localRules.ok) throw new Error('a settings file was left broken');
    expect([...projectRules.settings.allow, ...localRules.settings.allow].sort()).toEqual([...rules].sort());
    expect(fs.readFileSync(settingsFile(), 'utf8')).toContain('# team rules: this comment stays');
    // No temp file and no lock is left in the project's .gatehouse/.
    expect(fs.readdirSync(path.join(project, '.gatehouse')).sort()).toEqual(['settings.local.yaml', 'settings.yaml']);
  }, 300_000);

  it('the last-good cache keeps every project under parallel processes: broken files later still deny', async () => {
    const projects = Array.from({ length: 6 }, (_, i) => path.join(root, `p${i}`));
    for (const p of projects) {
      fs.mkdirSync(path.join(p, '.gatehouse'), { recursive: true });
      fs.writeFileSync(path.join(p, '.gatehouse', 'settings.yaml'), 'permissions:\n  deny: ["Bash(git push:*)"]\n');
    }
    const push = { tool: 'run_command', input: { command: 'git push' } };
    const first = await Promise.all(projects.map((p) => check(push, ['--mode', 'bypassPermissions'], p)));
    for (const d of first) expect(d).toMatchObject({ decision: 'deny', source: 'project' });
    for (const p of projects)
      fs.writeFileSync(
        path.join(p, '.gatehouse', 'settings.yaml'),
        'permissions:\n  deny: ["Bash(git push:*)"\n  allow: [Bash]\n',
      );
    const later = await Promise.all(projects.map((p) => check(push, ['--mode', 'bypassPermissions'], p)));
    for (const d of later) {
      expect(d).toMatchObject({ decision: 'deny', source: 'project', rule: 'Bash(git push:*)' });
      expect(d.stderr).toMatch(
        /settings error: .*settings\.yaml:\d+: .*not applied; its last good version stays in force/,
      );
    }
  }, 300_000);

  it('a kill in the middle of writes leaves no temp file in .gatehouse/ and a file that parses', async () => {
    fs.writeFileSync(settingsFile(), 'permissions:\n  allow: ["Bash(keep)"]\n');
    const kills = Array.from(
      { length: 16 },
      (_, i) =>
        new Promise<void>((resolve) => {
          const child = spawn(
            process.execPath,
            [CLI, 'rules', 'add', '--scope', 'project', '--behavior', 'deny', `Bash(k${i})`, '--project', project],
            { env, stdio: 'ignore' },
          );
          // Killed at staggered moments: before, during and after its write.
          setTimeout(() => child.kill('SIGKILL'), 40 + i * 15);
          child.on('close', () => resolve());
        }),
    );
    await Promise.all(kills);
    const left = fs.readdirSync(path.join(project, '.gatehouse'));
    expect(left.filter((n) => /tmp/i.test(n))).toEqual([]);
    const parsed = parseSettingsText(settingsFile(), fs.readFileSync(settingsFile(), 'utf8'));
    expect(parsed).toMatchObject({ ok: true, settings: { allow: ['Bash(keep)'] } });
  }, 120_000);
});

describe('hostile settings files never hang, never exhaust memory, never loosen', () => {
  it('a FIFO: permissions check and rules list answer at once and name the path; nothing is allowed without asking', async () => {
    execFileSync('mkfifo', [settingsFile()]);
    const d = await check(ls, ['--mode', 'bypassPermissions']);
    expect(d).toMatchObject({ decision: 'ask', source: 'project' });
    expect(d.reason).toContain(`${settingsFile()} cannot be read (is a FIFO (named pipe), not a regular file)`);
    expect(d.reason).toMatch(/deny and ask rules are unknown/);
    expect(d.stderr).toContain(`settings error: ${settingsFile()}: is a FIFO`);
    const list = await gatehouse(['rules', 'list', '--project', project]);
    expect(list.code).toBe(1);
    expect(list.stdout).toContain(`error: ${settingsFile()}: is a FIFO (named pipe), not a regular file`);
    // A hard deny is still a deny; a read in default mode asks too (nothing is allowed on unknown rules).
    expect(await check({ tool: 'run_command', input: { command: 'sudo ls' } })).toMatchObject({
      decision: 'deny',
      source: 'hard',
    });
    expect(await check({ tool: 'read_file', input: { path: 'README.md' } })).toMatchObject({ decision: 'ask' });
  }, 60_000);

  it('a symlink to /dev/zero is a device: refused at once, the last good version stays in force', async () => {
    fs.writeFileSync(settingsFile(), 'permissions:\n  deny: ["Bash(ls)"]\n');
    expect(await check(ls, ['--mode', 'bypassPermissions'])).toMatchObject({ decision: 'deny', rule: 'Bash(ls)' });
    fs.rmSync(settingsFile());
    fs.symlinkSync('/dev/zero', settingsFile());
    const d = await check(ls, ['--mode', 'bypassPermissions']);
    expect(d).toMatchObject({ decision: 'deny', source: 'project', rule: 'Bash(ls)' });
    expect(d.stderr).toContain(
      `${settingsFile()}: is a character device, not a regular file (not applied; its last good version stays in force)`,
    );
    const list = await gatehouse(['rules', 'list', '--project', project, '--json']);
    const json = JSON.parse(list.stdout) as { problems: Array<{ file: string; kind: string; reason: string }> };
    expect(json.problems).toEqual([
      expect.objectContaining({
        file: settingsFile(),
        kind: 'file',
        reason: 'is a character device, not a regular file',
      }),
    ]);
  }, 60_000);

  it('a 10 MB settings file is refused with the 1 MiB limit named, without reading it into memory', async () => {
    fs.writeFileSync(settingsFile(), `permissions:\n  allow: [${'"Bash(x)",'.repeat(1_100_000)}]\n`);
    expect(fs.statSync(settingsFile()).size).toBeGreaterThan(10_000_000);
    const d = await check(ls, ['--mode', 'bypassPermissions']);
    expect(d).toMatchObject({ decision: 'ask', source: 'project' });
    expect(d.stderr).toMatch(/is too large \(\d+\.\d MiB; the limit for settings files is 1 MiB\)/);
  }, 60_000);

  it('`rules add` refuses to edit a FIFO, naming it, and does not hang', async () => {
    execFileSync('mkfifo', [settingsFile()]);
    const r = await gatehouse([
      'rules',
      'add',
      '--scope',
      'project',
      '--behavior',
      'deny',
      'Bash(rm:*)',
      '--project',
      project,
    ]);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`${settingsFile()}: is a FIFO (named pipe), not a regular file; not read`);
  }, 60_000);

  it('`gatehouse web` on a project whose settings are a FIFO starts, and stops on SIGTERM', async () => {
    execFileSync('mkfifo', [settingsFile()]);
    const child = spawn(process.execPath, [CLI, 'web', '--port', '0', '--project', project], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (c: string) => {
        out += c;
        if (out.includes('Gatehouse is running at')) resolve();
      });
      child.on('close', () => reject(new Error(`web exited early: ${out}`)));
    });
    const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await closed).toBe(0);
  }, 60_000);
});

describe('unknown keys', () => {
  it('are reported with file, line and a suggestion by rules list (text and JSON) and once on stderr; they never loosen', async () => {
    fs.writeFileSync(
      settingsFile(),
      '# typos\nDeny: ["Bash(ls)"]\npermission:\n  allow: [Bash]\n  ask: ["Bash(rm:*)"]\npermissions:\n  alow: [Bash]\n  deny: ["Read(secrets/**)"]\n',
    );
    execFileSync(process.execPath, [CLI, 'trust', 'set', project, '--scope', 'directory'], { env });
    const text = await gatehouse(['rules', 'list', '--project', project]);
    expect(text.stdout).toContain(`warning: ${settingsFile()}:2: unknown key "Deny" (did you mean permissions.deny?)`);
    expect(text.stdout).toContain(`warning: ${settingsFile()}:3: unknown key "permission" (did you mean permissions?)`);
    expect(text.stdout).toContain(
      `warning: ${settingsFile()}:7: unknown key "permissions.alow" (did you mean allow?) (ignored: its rules are not applied`,
    );
    const json = JSON.parse((await gatehouse(['rules', 'list', '--project', project, '--json'])).stdout) as {
      problems: Array<{ line: number; kind: string; suggestion: string | null }>;
      rules: Array<{ rule: string; behavior: string }>;
    };
    expect(json.problems.map((p) => [p.kind, p.line, p.suggestion])).toEqual([
      ['unknownKey', 2, 'permissions.deny'],
      ['unknownKey', 3, 'permissions'],
      ['unknownKey', 7, 'allow'],
    ]);
    // The misspelt deny and ask lists restrict; the misspelt allow lists never allow.
    expect(json.rules.map((r) => `${r.behavior} ${r.rule}`).sort()).toEqual([
      'ask Bash(rm:*)',
      'deny Bash(ls)',
      'deny Read(secrets/**)',
    ]);
    const d = await check(ls, ['--mode', 'bypassPermissions']);
    expect(d).toMatchObject({ decision: 'deny', rule: 'Bash(ls)' });
    expect(d.stderr.match(/unknown key "Deny"/g)).toHaveLength(1);
    expect(await check({ tool: 'run_command', input: { command: 'make' } })).toMatchObject({ decision: 'ask' });
  }, 60_000);
});
