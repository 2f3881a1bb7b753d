import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addRuleToFile, removeRuleFromFile } from '../../../src/main/core/settings/edit-rules-file';
import { ensureGitExcluded } from '../../../src/main/core/settings/git-exclude';
import { parseSettingsText } from '../../../src/main/core/settings/parse-settings';

let root: string;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-edit-')));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('addRuleToFile / removeRuleFromFile', () => {
  it('preserves comments and layout', async () => {
    const file = path.join(root, 'settings.yaml');
    const original =
      '# my settings\ntrust:\n  default: ask # keep me\npermissions:\n  # the allow list\n  allow:\n    - Bash(ls) # listing\n  deny: []\n';
    fs.writeFileSync(file, original);
    expect(await addRuleToFile(file, 'allow', 'Bash(npm test)')).toBe(true);
    expect(await addRuleToFile(file, 'allow', 'Bash(npm test)')).toBe(false);
    expect(await addRuleToFile(file, 'ask', 'Bash(git push:*)')).toBe(true);
    expect(await addRuleToFile(file, 'deny', 'Read(.env)')).toBe(true);
    const text = fs.readFileSync(file, 'utf8');
    for (const kept of ['# my settings', 'default: ask # keep me', '# the allow list', '- Bash(ls) # listing'])
      expect(text).toContain(kept);
    const parsed = parseSettingsText(file, text);
    expect(parsed.ok && parsed.settings).toMatchObject({
      allow: ['Bash(ls)', 'Bash(npm test)'],
      ask: ['Bash(git push:*)'],
      deny: ['Read(.env)'],
    });
    expect(await removeRuleFromFile(file, 'allow', 'Bash(ls)')).toBe(true);
    expect(await removeRuleFromFile(file, 'allow', 'Bash(ls)')).toBe(false);
    const after = fs.readFileSync(file, 'utf8');
    expect(after).toContain('# my settings');
    expect(after).not.toContain('Bash(ls)');
  });

  it('creates a missing file and refuses to edit a broken one or add a bad rule', async () => {
    const file = path.join(root, 'new', 'settings.local.yaml');
    await addRuleToFile(file, 'allow', 'Edit(src/**)');
    expect(parseSettingsText(file, fs.readFileSync(file, 'utf8'))).toMatchObject({
      ok: true,
      settings: { allow: ['Edit(src/**)'] },
    });
    await expect(addRuleToFile(file, 'allow', 'Bash(')).rejects.toThrow(/does not parse/);
    fs.writeFileSync(file, 'permissions: [\n');
    await expect(addRuleToFile(file, 'allow', 'Bash(ls)')).rejects.toThrow(/not valid YAML/);
    expect(fs.readFileSync(file, 'utf8')).toBe('permissions: [\n');
    // No temp files left behind.
    expect(fs.readdirSync(path.dirname(file))).toEqual(['settings.local.yaml']);
  });
});

describe('ensureGitExcluded', () => {
  it('adds the local settings file to .git/info/exclude once, without touching tracked files', async () => {
    const project = path.join(root, 'repo');
    fs.mkdirSync(project);
    execFileSync('git', ['init', '-q', project]);
    const file = path.join(project, '.gatehouse', 'settings.local.yaml');
    expect(await ensureGitExcluded(project, file)).toBe(true);
    expect(await ensureGitExcluded(project, file)).toBe(false);
    const exclude = fs.readFileSync(path.join(project, '.git', 'info', 'exclude'), 'utf8');
    expect(exclude.split('\n').filter((l) => l === '/.gatehouse/settings.local.yaml')).toHaveLength(1);
    expect(fs.existsSync(path.join(project, '.gitignore'))).toBe(false);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'x: 1\n');
    const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], {
      cwd: project,
      encoding: 'utf8',
    });
    expect(status).not.toContain('settings.local.yaml');
  });
  it('does nothing outside a git repository', async () => {
    expect(await ensureGitExcluded(root, path.join(root, '.gatehouse', 'settings.local.yaml'))).toBe(false);
  });
  it('works for a project in a subfolder of a repository', async () => {
    execFileSync('git', ['init', '-q', root]);
    const project = path.join(root, 'pkg');
    fs.mkdirSync(project);
    expect(await ensureGitExcluded(project, path.join(project, '.gatehouse', 'settings.local.yaml'))).toBe(true);
    expect(fs.readFileSync(path.join(root, '.git', 'info', 'exclude'), 'utf8')).toContain(
      '/pkg/.gatehouse/settings.local.yaml',
    );
  });
});
