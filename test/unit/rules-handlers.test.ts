import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRulesHandlers } from '../../src/main/services/app/rules-handlers';
import { permissionsCommand } from '../../src/main/shells/cli/permissions-command';
import type { TrustStore } from '../../src/main/core/trust/trust-store';
import { RulesListSchema } from '../../src/shared/rules-contract';
import { rejection, removeTempDirs, rulesDirs, write } from './rules-helpers';

describe('rules handlers', () => {
  let home: string;
  let project: string;
  let env: NodeJS.ProcessEnv;
  let trust: TrustStore;
  let open: string | null;
  const handlers = () =>
    createRulesHandlers({
      currentProject: () => open,
      configDir: home,
      env,
      trust: { isTrusted: (d) => trust.isTrusted(d) },
    });

  beforeEach(() => {
    ({ home, project, env, trust } = rulesDirs('rules'));
    open = project;
    write(path.join(home, 'policy.yaml'), 'permissions:\n  deny: ["Bash(rm -rf *)"]\n');
    write(path.join(home, 'settings.yaml'), '# my user settings\npermissions:\n  ask: ["Bash(git push:*)"]\n');
    write(
      path.join(project, '.gatehouse/settings.yaml'),
      '# team rules, keep this comment\npermissions:\n  allow: ["Bash(npm test)"]\n',
    );
    write(path.join(project, '.claude/settings.json'), JSON.stringify({ permissions: { allow: ['Bash(ls:*)'] } }));
  });
  afterEach(removeTempDirs);

  it('lists every rule with scope, file and editable flag (policy and Claude imports read only)', async () => {
    const list = RulesListSchema.parse(await handlers().listRules({}));
    const find = (rule: string) => list.rules.find((r) => r.rule === rule);
    expect(find('Bash(rm -rf *)')).toMatchObject({
      behavior: 'deny',
      scope: 'policy',
      editable: false,
      claudeImport: false,
    });
    expect(find('Bash(git push:*)')).toMatchObject({
      behavior: 'ask',
      scope: 'user',
      editable: true,
      file: path.join(home, 'settings.yaml'),
    });
    expect(find('Bash(npm test)')).toMatchObject({
      behavior: 'allow',
      scope: 'project',
      editable: true,
      file: path.join(project, '.gatehouse/settings.yaml'),
    });
    expect(find('Bash(ls:*)')).toMatchObject({
      scope: 'project',
      claudeImport: true,
      editable: false,
      file: path.join(project, '.claude/settings.json'),
    });
    expect(list.fileErrors).toEqual([]);
    expect(list.trusted).toBe(false);
    expect(list.scopeFiles.local).toBe(path.join(project, '.gatehouse/settings.local.yaml'));
  });

  it('adds and removes rules in the YAML file, keeping comments; duplicates are not added twice', async () => {
    const h = handlers();
    const file = path.join(project, '.gatehouse/settings.yaml');
    expect(await h.addRule({ rule: 'Read(src/**)', behavior: 'deny', scope: 'project' })).toEqual({
      changed: true,
      file,
    });
    expect(await h.addRule({ rule: 'Read(src/**)', behavior: 'deny', scope: 'project' })).toEqual({
      changed: false,
      file,
    });
    const text = fs.readFileSync(file, 'utf8');
    expect(text).toContain('# team rules, keep this comment');
    expect(text).toContain('Read(src/**)');
    expect((await h.listRules({})).rules.find((r) => r.rule === 'Read(src/**)')).toMatchObject({
      behavior: 'deny',
      scope: 'project',
    });
    await h.removeRule({ rule: 'Read(src/**)', behavior: 'deny', scope: 'project' });
    expect(fs.readFileSync(file, 'utf8')).not.toContain('Read(src/**)');
    expect((await rejection(h.removeRule({ rule: 'Read(src/**)', behavior: 'deny', scope: 'project' }))).code).toBe(
      'NOT_FOUND',
    );
  });

  it('writes the local scope and keeps it out of git', async () => {
    fs.mkdirSync(path.join(project, '.git/info'), { recursive: true });
    await handlers().addRule({ rule: 'Edit(docs/**)', behavior: 'allow', scope: 'local' });
    expect(fs.readFileSync(path.join(project, '.gatehouse/settings.local.yaml'), 'utf8')).toContain('Edit(docs/**)');
    expect(fs.readFileSync(path.join(project, '.git/info/exclude'), 'utf8')).toContain('settings.local.yaml');
  });

  it('refuses a rule that does not parse, and a broken file, with a clear message and no write', async () => {
    const h = handlers();
    const userFile = path.join(home, 'settings.yaml');
    const before = fs.readFileSync(userFile, 'utf8');
    const bad = await rejection(h.addRule({ rule: 'Bash(npm test', behavior: 'allow', scope: 'user' }));
    expect(bad.code).toBe('BAD_REQUEST');
    expect(bad.message).toMatch(/does not parse/);
    expect(fs.readFileSync(userFile, 'utf8')).toBe(before);
    expect(await h.validateRule({ rule: 'Bash(npm test' })).toMatchObject({ ok: false, error: expect.any(String) });
    expect(await h.validateRule({ rule: '   ' })).toMatchObject({ ok: false });
    expect(await h.validateRule({ rule: 'Bash(npm run build:*)' })).toEqual({ ok: true, warnings: [] });
    // Valid syntax that does nothing says so: a mistyped tool, an allow a hard check always overrides.
    expect(await h.validateRule({ rule: 'Bsh(ls)' })).toEqual({
      ok: true,
      warnings: ['unknown tool "Bsh": did you mean Bash? As written the rule matches nothing'],
    });
    expect((await h.validateRule({ rule: 'Read(../**)', behavior: 'allow' })).warnings?.[0]).toContain(
      'path confinement always wins',
    );
    expect(await h.validateRule({ rule: 'Read(../**)', behavior: 'deny' })).toEqual({ ok: true, warnings: [] });

    const projectFile = path.join(project, '.gatehouse/settings.yaml');
    write(projectFile, 'permissions:\n  allow: [unclosed\n');
    const broken = await rejection(h.addRule({ rule: 'Read(a)', behavior: 'allow', scope: 'project' }));
    expect(broken.message).toContain('is not valid YAML');
    expect(fs.readFileSync(projectFile, 'utf8')).toBe('permissions:\n  allow: [unclosed\n');
    const list = await h.listRules({});
    expect(list.fileErrors).toEqual([
      expect.objectContaining({ file: projectFile, line: expect.any(Number), reason: expect.any(String) }),
    ]);
  });

  it('reports rules that fail to parse inside a file', async () => {
    write(path.join(home, 'settings.yaml'), 'permissions:\n  deny: ["Bash(oops", "Read(.env)"]\n');
    const list = await handlers().listRules({});
    expect(list.ruleErrors).toEqual([expect.objectContaining({ rule: 'Bash(oops', behavior: 'deny', scope: 'user' })]);
    expect(list.rules.some((r) => r.rule === 'Read(.env)')).toBe(true);
  });

  it('needs an open project', async () => {
    open = null;
    expect((await rejection(handlers().listRules({}))).message).toMatch(/no project is open/);
    expect((await rejection(handlers().addRule({ rule: 'Read(a)', behavior: 'allow', scope: 'project' }))).code).toBe(
      'BAD_REQUEST',
    );
  });

  it('testCall gives the same decision as `gatehouse permissions check`, and follows trust', async () => {
    const cli = async (call: unknown) => {
      const lines: string[] = [];
      const code = await permissionsCommand.run(['check', '--project', project, '--call', JSON.stringify(call)], {
        out: (l) => lines.push(l),
        err: () => {},
        env,
        cwd: project,
      });
      expect(code).toBe(0);
      return JSON.parse(lines.at(-1) ?? '{}') as unknown;
    };
    const h = handlers();
    const calls = [
      { tool: 'run_command', input: { command: 'npm test' } },
      { tool: 'run_command', input: { command: 'rm -rf /' } },
      { tool: 'run_command', input: { command: 'git push origin main' } },
      { tool: 'read_file', input: { path: '../outside.txt' } },
    ];
    for (const call of calls) expect(await h.testCall(call)).toEqual(await cli(call));
    // Untrusted: the project allow rule is not applied; trusted: it is.
    expect((await h.testCall(calls[0]!)).rule).not.toBe('Bash(npm test)');
    expect((await h.testCall(calls[1]!)).decision).toBe('deny');
    await trust.set(project, 'directory');
    const trusted = await h.testCall(calls[0]!);
    expect(trusted).toMatchObject({ decision: 'allow', rule: 'Bash(npm test)', source: 'project' });
    expect(trusted).toEqual(await cli(calls[0]!));
  });
});

describe('"Test a call" is a simulation', () => {
  afterEach(removeTempDirs);
  it('never reaches the real audit log: 300 tests leave audit.jsonl untouched and go to audit-simulations.jsonl', async () => {
    const { home, project, env, trust } = rulesDirs('rules-sim');
    write(path.join(home, 'audit.jsonl'), '{"real":"decision"}\n');
    const h = createRulesHandlers({
      currentProject: () => project,
      configDir: home,
      env,
      trust: { isTrusted: (d) => trust.isTrusted(d) },
    });
    for (let i = 0; i < 300; i++) await h.testCall({ tool: 'run_command', input: { command: `echo ${i}` } });
    expect(fs.readFileSync(path.join(home, 'audit.jsonl'), 'utf8')).toBe('{"real":"decision"}\n');
    expect(fs.readFileSync(path.join(home, 'audit-simulations.jsonl'), 'utf8')).toContain('echo 299');
  });
});

describe('the rules editor load problems', () => {
  afterEach(removeTempDirs);
  it('list unknown keys (kind, line, suggestion, effect) and broken files in the shape the editor reads', async () => {
    const { home, project, env, trust } = rulesDirs('rules-keys');
    write(path.join(project, '.gatehouse/settings.yaml'), 'permissions:\n  Deny: ["Bash(rm:*)"]\n');
    write(path.join(project, '.gatehouse/settings.local.yaml'), 'permissions: [broken\n');
    const h = createRulesHandlers({
      currentProject: () => project,
      configDir: home,
      env,
      trust: { isTrusted: (d) => trust.isTrusted(d) },
    });
    const list = RulesListSchema.parse(await h.listRules({}));
    expect(list.fileErrors).toEqual([
      expect.objectContaining({
        file: path.join(project, '.gatehouse/settings.local.yaml'),
        kind: 'file',
        effect: expect.stringMatching(/no earlier good version .* asks until it is fixed/),
      }),
      expect.objectContaining({
        file: path.join(project, '.gatehouse/settings.yaml'),
        line: 2,
        kind: 'unknownKey',
        suggestion: 'deny',
        reason: 'unknown key "permissions.Deny" (did you mean deny?)',
      }),
    ]);
    expect(list.rules.find((r) => r.rule === 'Bash(rm:*)')).toMatchObject({ behavior: 'deny', scope: 'project' });
  });
});
