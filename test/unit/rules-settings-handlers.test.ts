import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiHandlers } from '../../src/main/services/app/api-dispatch';
import { dispatchApi } from '../../src/main/services/app/api-dispatch';
import { createRulesHandlers } from '../../src/main/services/app/rules-handlers';
import { createPermissionEngine } from '../../src/main/core/permission/create-engine';
import type { RuleFileOps } from '../../src/main/core/settings/move-rule';
import { addRuleToFile, fileHasRule } from '../../src/main/core/settings/edit-rules-file';
import type { TrustStore } from '../../src/main/core/trust/trust-store';
import { rejection, removeTempDirs, rulesDirs, tempDir, write } from './rules-helpers';

// The rules editor's edit, move, default-mode and additional-directory channels on real files in temp dirs.

describe('rules editor: edit, move, default mode, additional directories', () => {
  let home: string;
  let project: string;
  let env: NodeJS.ProcessEnv;
  let trust: TrustStore;
  let userFile: string;
  let projectFile: string;
  let localFile: string;
  let moveOps: RuleFileOps | undefined;
  const handlers = () =>
    createRulesHandlers({
      currentProject: () => project,
      configDir: home,
      env,
      trust: { isTrusted: (d) => trust.isTrusted(d) },
      ...(moveOps ? { moveOps } : {}),
    });
  /** Through the same dispatch as the socket and IPC: malformed payloads never reach a handler. */
  const call = (channel: string, payload: unknown) =>
    dispatchApi(handlers() as unknown as ApiHandlers, channel, payload);
  const decide = async (call: unknown) => {
    const engine = await createPermissionEngine({
      projectRoot: project,
      configDir: home,
      env,
      trust: { isTrusted: (d) => trust.isTrusted(d) },
      audit: null,
    });
    return await engine.decide(call);
  };

  beforeEach(async () => {
    ({ home, project, env, trust } = rulesDirs('rules-edit'));
    await trust.set(project, 'directory');
    moveOps = undefined;
    userFile = path.join(home, 'settings.yaml');
    projectFile = path.join(project, '.gatehouse/settings.yaml');
    localFile = path.join(project, '.gatehouse/settings.local.yaml');
    write(userFile, '# my user settings\npermissions:\n  ask: ["Bash(git push:*)"]\n');
    write(
      projectFile,
      '# team rules, keep this comment\npermissions:\n  allow:\n    - Bash(npm test) # the test runner\n    - Read(docs/**)\n',
    );
  });
  afterEach(removeTempDirs);

  it('edits a rule in place: the text changes where it stands, its comment and the file comment stay', async () => {
    const from = { rule: 'Bash(npm test)', behavior: 'allow', scope: 'project' };
    expect(await call('updateRule', { from, to: { ...from, rule: 'Bash(npm run test:*)' } })).toEqual({
      changed: true,
      files: [projectFile],
    });
    const text = fs.readFileSync(projectFile, 'utf8');
    expect(text).toContain('# team rules, keep this comment');
    expect(text).toMatch(/- Bash\(npm run test:\*\) # the test runner\n\s+- Read\(docs\/\*\*\)/);
    expect(text).not.toContain('Bash(npm test)');
    expect(await decide({ tool: 'run_command', input: { command: 'npm run test --watch' } })).toMatchObject({
      decision: 'allow',
      source: 'project',
      rule: 'Bash(npm run test:*)',
    });

    // Behaviour too: from allow to deny, in one write; the engine now denies.
    await call('updateRule', {
      from: { rule: 'Read(docs/**)', behavior: 'allow', scope: 'project' },
      to: { rule: 'Read(docs/**)', behavior: 'deny', scope: 'project' },
    });
    const after = fs.readFileSync(projectFile, 'utf8');
    expect(after).toMatch(/deny:\s*\n\s+- Read\(docs\/\*\*\)/);
    expect(after).toContain('# team rules, keep this comment');
    expect(await decide({ tool: 'read_file', input: { path: 'docs/a.md' } })).toMatchObject({
      decision: 'deny',
      source: 'project',
      rule: 'Read(docs/**)',
    });
  });

  it('refuses an edit to a rule that does not parse, or of a rule that is not there, and writes nothing', async () => {
    const before = fs.readFileSync(projectFile, 'utf8');
    const from = { rule: 'Bash(npm test)', behavior: 'allow', scope: 'project' };
    const bad = await rejection(call('updateRule', { from, to: { ...from, rule: 'Bash(npm test' } }));
    expect(bad).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/does not parse/) });
    const gone = await rejection(call('updateRule', { from: { ...from, rule: 'Bash(ls)' }, to: from }));
    expect(gone).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining(projectFile) });
    // A Claude Code import stays read only: no scope names its file, so a forged edit finds nothing to change.
    const claudeFile = path.join(project, '.claude/settings.json');
    write(claudeFile, JSON.stringify({ permissions: { allow: ['Bash(ls:*)'] } }));
    const imported = { rule: 'Bash(ls:*)', behavior: 'allow', scope: 'project' };
    expect((await rejection(call('updateRule', { from: imported, to: { ...imported, behavior: 'deny' } }))).code).toBe(
      'NOT_FOUND',
    );
    expect((await rejection(call('updateRule', { from: imported, to: { ...imported, scope: 'user' } }))).code).toBe(
      'NOT_FOUND',
    );
    expect(fs.readFileSync(claudeFile, 'utf8')).toBe(JSON.stringify({ permissions: { allow: ['Bash(ls:*)'] } }));
    expect(fs.readFileSync(userFile, 'utf8')).not.toContain('Bash(ls:*)');
    expect(fs.readFileSync(projectFile, 'utf8')).toBe(before);
    for (const payload of [
      { from },
      { from, to: { ...from, scope: 'policy' } },
      { from, to: { ...from, behavior: 'maybe' } },
      { from, to: from, extra: 1 },
      { from: { ...from, rule: '' }, to: from },
    ]) {
      const err = await rejection(call('updateRule', payload));
      expect(err.code).toBe('BAD_REQUEST');
      expect(err.message).toMatch(/updateRule/);
    }
    expect(fs.readFileSync(projectFile, 'utf8')).toBe(before);
  });

  it('moves a rule between scopes: added to the target, removed from the source, both files keep their comments', async () => {
    fs.mkdirSync(path.join(project, '.git/info'), { recursive: true });
    const from = { rule: 'Bash(npm test)', behavior: 'allow', scope: 'project' };
    expect(await call('updateRule', { from, to: { ...from, scope: 'local' } })).toEqual({
      changed: true,
      files: [localFile, projectFile],
    });
    expect(fs.readFileSync(localFile, 'utf8')).toContain('Bash(npm test)');
    expect(fs.readFileSync(projectFile, 'utf8')).not.toContain('Bash(npm test)');
    expect(fs.readFileSync(projectFile, 'utf8')).toContain('# team rules, keep this comment');
    expect(fs.readFileSync(path.join(project, '.git/info/exclude'), 'utf8')).toContain('settings.local.yaml');
    expect(await decide({ tool: 'run_command', input: { command: 'npm test' } })).toMatchObject({
      decision: 'allow',
      source: 'local',
    });
    // To the user file, as an ask rule this time.
    await call('updateRule', { from: { ...from, scope: 'local' }, to: { ...from, behavior: 'ask', scope: 'user' } });
    expect(fs.readFileSync(userFile, 'utf8')).toMatch(/# my user settings[\s\S]*ask:[\s\S]*Bash\(npm test\)/);
    expect(await fileHasRule(localFile, 'allow', 'Bash(npm test)')).toBe(false);
  });

  it('a move whose second write fails keeps the rule in both files and says so; a failed first write changes nothing', async () => {
    moveOps = {
      has: fileHasRule,
      add: addRuleToFile,
      remove: () => Promise.reject(new Error('EROFS: read-only file system')),
    };
    const from = { rule: 'Bash(npm test)', behavior: 'allow', scope: 'project' };
    const partial = await rejection(call('updateRule', { from, to: { ...from, scope: 'user' } }));
    expect(partial.code).toBe('INTERNAL');
    expect(partial.message).toMatch(
      /could not be removed from .*settings\.yaml \(EROFS: read-only file system\): it is in both files now/,
    );
    expect(await fileHasRule(userFile, 'allow', 'Bash(npm test)')).toBe(true);
    expect(await fileHasRule(projectFile, 'allow', 'Bash(npm test)')).toBe(true);

    moveOps = undefined;
    write(localFile, 'permissions: [broken\n');
    const before = fs.readFileSync(projectFile, 'utf8');
    const refused = await rejection(
      call('updateRule', {
        from: { ...from, rule: 'Read(docs/**)' },
        to: { ...from, rule: 'Read(docs/**)', scope: 'local' },
      }),
    );
    expect(refused).toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining(`${localFile} is not valid YAML`),
    });
    expect(fs.readFileSync(projectFile, 'utf8')).toBe(before);
    expect(fs.readFileSync(localFile, 'utf8')).toBe('permissions: [broken\n');
  });

  it('sets and clears a scope file\u2019s default mode, keeping comments; the engine follows', async () => {
    expect((await handlers().listRules({})).scopeModes).toEqual({ user: null, project: null, local: null });
    expect(await call('setScopeMode', { scope: 'project', mode: 'acceptEdits' })).toEqual({
      changed: true,
      file: projectFile,
    });
    expect(fs.readFileSync(projectFile, 'utf8')).toMatch(/# team rules, keep this comment[\s\S]*mode: acceptEdits/);
    expect((await handlers().listRules({})).scopeModes.project).toBe('acceptEdits');
    expect(await decide({ tool: 'write_file', input: { path: 'x.txt', content: '' } })).toMatchObject({
      decision: 'allow',
      source: 'mode',
    });
    expect(await call('setScopeMode', { scope: 'project', mode: 'acceptEdits' })).toEqual({
      changed: false,
      file: projectFile,
    });
    expect(await call('setScopeMode', { scope: 'project', mode: null })).toEqual({ changed: true, file: projectFile });
    expect(fs.readFileSync(projectFile, 'utf8')).not.toContain('mode:');
    expect(fs.readFileSync(projectFile, 'utf8')).toContain('Bash(npm test) # the test runner');
    await expect(call('setScopeMode', { scope: 'project', mode: 'yolo' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    await expect(call('setScopeMode', { scope: 'policy', mode: 'strict' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
  });

  it('bypass as an untrusted project\u2019s own default is refused (file untouched); the user\u2019s own file may say bypass', async () => {
    await trust.revoke(project);
    await trust.set(project, 'never');
    const before = fs.readFileSync(projectFile, 'utf8');
    for (const scope of ['project', 'local']) {
      const err = await rejection(call('setScopeMode', { scope, mode: 'bypassPermissions' }));
      expect(err).toMatchObject({ code: 'FORBIDDEN', message: expect.stringMatching(/untrusted project/) });
      // auto lets calls through without the person too: refused the same way.
      const auto = await rejection(call('setScopeMode', { scope, mode: 'auto' }));
      expect(auto).toMatchObject({ code: 'FORBIDDEN', message: expect.stringMatching(/^auto cannot.*untrusted/) });
    }
    expect(fs.readFileSync(projectFile, 'utf8')).toBe(before);
    expect(fs.existsSync(localFile)).toBe(false);
    expect(await call('setScopeMode', { scope: 'user', mode: 'bypassPermissions' })).toEqual({
      changed: true,
      file: userFile,
    });
    // Untrusted: the user's bypass still cannot let a write through (trust caps it).
    expect(await decide({ tool: 'write_file', input: { path: 'x.txt', content: '' } })).toMatchObject({
      decision: 'ask',
      source: 'trust',
    });
    await trust.revoke(project);
    await trust.set(project, 'directory');
    expect(await call('setScopeMode', { scope: 'project', mode: 'bypassPermissions' })).toEqual({
      changed: true,
      file: projectFile,
    });
  });

  it('adds and removes additional directories per scope; a missing directory is refused with its path', async () => {
    const shared = tempDir('gh-rules-edit-shared-');
    fs.writeFileSync(path.join(shared, 'lib.ts'), 'export {};\n');
    expect(await call('addDirectory', { scope: 'local', dir: shared })).toEqual({
      changed: true,
      file: localFile,
      resolved: shared,
    });
    expect(await call('addDirectory', { scope: 'local', dir: shared })).toMatchObject({ changed: false });
    expect((await handlers().listRules({})).additionalDirectories).toEqual([
      expect.objectContaining({ dir: shared, source: 'local', file: localFile }),
    ]);
    expect(await decide({ tool: 'read_file', input: { path: path.join(shared, 'lib.ts') } })).toMatchObject({
      decision: 'allow',
    });

    const missing = await rejection(call('addDirectory', { scope: 'project', dir: '../no-such-dir' }));
    expect(missing).toMatchObject({
      code: 'BAD_REQUEST',
      message: expect.stringContaining(`does not exist (looked for ${path.resolve(project, '../no-such-dir')})`),
    });
    const notDir = await rejection(call('addDirectory', { scope: 'project', dir: path.join(shared, 'lib.ts') }));
    expect(notDir.message).toMatch(/is not a directory/);
    expect(fs.readFileSync(projectFile, 'utf8')).not.toContain('additionalDirectories');
    await expect(call('addDirectory', { scope: 'project', dir: '   ' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });

    expect(await call('removeDirectory', { scope: 'local', dir: shared })).toEqual({ changed: true, file: localFile });
    expect((await rejection(call('removeDirectory', { scope: 'local', dir: shared }))).code).toBe('NOT_FOUND');
    expect(await decide({ tool: 'read_file', input: { path: path.join(shared, 'lib.ts') } })).toMatchObject({
      decision: 'deny',
      source: 'hard',
    });
  });
});
