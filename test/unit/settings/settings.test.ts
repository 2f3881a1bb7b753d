import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseSettingsText } from '../../../src/main/core/settings/parse-settings';
import { SettingsStore } from '../../../src/main/core/settings/settings-store';
import { WatchedSettingsFile } from '../../../src/main/core/settings/watched-settings-file';
import { policyFile, settingsLocations } from '../../../src/main/core/settings/settings-locations';

let root: string;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-settings-')));
});
/** The stores a test opened: their last good versions are written in the background, before the folder goes. */
const opened: SettingsStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.flush()));
  fs.rmSync(root, { recursive: true, force: true });
});

/** Rewrites a file so its stat signature surely changes (size or ns mtime): each rewrite gets a later mtime. */
let rewrites = 0;
function rewrite(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  const t = new Date(Date.now() + ++rewrites * 1000);
  fs.utimesSync(file, t, t);
}

describe('parseSettingsText', () => {
  it('reads YAML and JSON alike, ignoring other top-level keys', () => {
    const y = parseSettingsText(
      'f',
      'trust:\n  default: ask\npermissions:\n  mode: strict\n  allow: ["Bash(ls)"]\n  deny:\n    - Read(.env)\n',
    );
    expect(y).toEqual({
      ok: true,
      settings: {
        mode: 'strict',
        allow: ['Bash(ls)'],
        ask: [],
        deny: ['Read(.env)'],
        additionalDirectories: [],
        hooks: [],
      },
      keyProblems: [],
    });
    const j = parseSettingsText(
      'f',
      JSON.stringify({ permissions: { ask: ['Bash(git push:*)'], additionalDirectories: ['../lib'] }, model: 'x' }),
    );
    expect(j.ok && j.settings.ask).toEqual(['Bash(git push:*)']);
    expect(j.ok && j.settings.additionalDirectories).toEqual(['../lib']);
  });
  it('an empty file is empty settings', () => {
    expect(parseSettingsText('f', '')).toMatchObject({ ok: true });
    expect(parseSettingsText('f', '# only a comment\n')).toMatchObject({ ok: true });
  });
  it('reports YAML syntax errors with their line', () => {
    const r = parseSettingsText('/x/settings.yaml', 'permissions:\n  allow: ["Bash(ls)"\n  deny: []\n');
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.file).toBe('/x/settings.yaml');
      expect(r.error.line).toBeGreaterThanOrEqual(2);
    }
  });
  it('reports shape errors with the line of the offending value', () => {
    const r = parseSettingsText('f', 'permissions:\n  mode: default\n  allow:\n    - Bash(ls)\n    - 42\n');
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.line).toBe(5);
      expect(r.error.reason).toContain('permissions.allow.1');
    }
    const m = parseSettingsText('f', 'permissions:\n  mode: yolo\n');
    expect(!m.ok && m.error.line).toBe(2);
    const top = parseSettingsText('f', '- a\n- b\n');
    expect(top.ok).toBe(false);
    const j = parseSettingsText('f', '{"permissions": {"allow": "Bash(ls)"}}');
    expect(!j.ok && j.error.line).toBe(1);
  });
});

describe('WatchedSettingsFile', () => {
  it('re-reads on change and keeps the last good version when the file breaks', async () => {
    const file = path.join(root, 'settings.yaml');
    const w = new WatchedSettingsFile(file);
    expect(await w.refresh()).toBe(true);
    expect(w.current().deny).toEqual([]);
    rewrite(file, 'permissions:\n  deny: ["Bash(git push:*)"]\n');
    expect(await w.refresh()).toBe(true);
    expect(w.current().deny).toEqual(['Bash(git push:*)']);
    expect(await w.refresh()).toBe(false);
    rewrite(file, 'permissions:\n  deny: ["Bash(git push:*)"\n');
    await w.refresh();
    expect(w.error()?.line).toBeGreaterThan(0);
    expect(w.current().deny).toEqual(['Bash(git push:*)']);
    // A second watcher in the same process (a new engine) also keeps the last good version.
    const again = new WatchedSettingsFile(file);
    await again.refresh();
    expect(again.current().deny).toEqual(['Bash(git push:*)']);
    rewrite(file, 'permissions:\n  deny: ["Bash(rm:*)"]\n');
    await w.refresh();
    expect(w.error()).toBeNull();
    expect(w.current().deny).toEqual(['Bash(rm:*)']);
  });
});

describe('settings locations', () => {
  it('GATEHOUSE_POLICY overrides the machine-wide policy path', () => {
    expect(policyFile({ GATEHOUSE_POLICY: '/tmp/p.yaml' })).toBe('/tmp/p.yaml');
    expect(policyFile({}, 'linux')).toBe('/etc/gatehouse/policy.yaml');
    expect(policyFile({}, 'darwin')).toBe('/Library/Application Support/Gatehouse/policy.yaml');
    expect(policyFile({ ProgramData: 'D:\\PD' }, 'win32')).toBe('D:\\PD\\Gatehouse\\policy.yaml');
  });
  it('lists every source, Claude Code files counting as project/local/user', () => {
    const locs = settingsLocations({
      projectRoot: '/p',
      configDir: '/c',
      home: '/h',
      env: { GATEHOUSE_POLICY: '/pol.yaml' },
    });
    expect(locs.map((l) => [l.source, l.file])).toEqual([
      ['policy', '/pol.yaml'],
      ['local', '/p/.gatehouse/settings.local.yaml'],
      ['local', '/p/.gatehouse/settings.local.json'],
      ['local', '/p/.claude/settings.local.json'],
      ['project', '/p/.gatehouse/settings.yaml'],
      ['project', '/p/.gatehouse/settings.json'],
      ['project', '/p/.claude/settings.json'],
      ['user', '/c/settings.yaml'],
      ['user', '/c/settings.json'],
      ['user', '/h/.claude/settings.json'],
      // Misplaced: reported, only their deny and ask rules apply.
      ['local', '/p/.gatehouse/settings.local.yml'],
      ['project', '/p/.gatehouse/settings.yml'],
      ['user', '/c/settings.yml'],
      ['user', '/h/.gatehouse/settings.yaml'],
      ['user', '/h/.gatehouse/settings.yml'],
      ['user', '/h/.gatehouse/settings.json'],
    ]);
    expect(locs.filter((l) => l.misplaced).map((l) => l.misplaced!.expected)).toEqual([
      '/p/.gatehouse/settings.local.yaml',
      '/p/.gatehouse/settings.yaml',
      '/c/settings.yaml',
      '/c/settings.yaml',
      '/c/settings.yaml',
      '/c/settings.json',
    ]);
  });
});

describe('SettingsStore', () => {
  function store(cli: { behavior: 'allow' | 'ask' | 'deny'; rule: string }[] = []) {
    const project = path.join(root, 'project');
    fs.mkdirSync(project, { recursive: true });
    const s = new SettingsStore({
      projectRoot: project,
      configDir: path.join(root, 'gh'),
      home: path.join(root, 'home'),
      env: { GATEHOUSE_POLICY: path.join(root, 'policy.yaml') },
      cliRules: cli,
    });
    opened.push(s);
    return { project, s };
  }

  it('loads every source and reports a bad rule without dropping the rest of its file', async () => {
    const { project, s } = store([{ behavior: 'deny', rule: 'Bash(curl:*)' }]);
    rewrite(path.join(root, 'policy.yaml'), 'permissions:\n  deny: ["Bash(sudo:*)"]\n');
    rewrite(
      path.join(root, 'gh', 'settings.yaml'),
      'permissions:\n  allow: ["Bash(make:*)", "Bash(", "WebFetch(domain:x.com)"]\n',
    );
    rewrite(
      path.join(project, '.gatehouse', 'settings.yaml'),
      'permissions:\n  ask: ["Edit(src/**)"]\n  mode: acceptEdits\n',
    );
    rewrite(path.join(project, '.gatehouse', 'settings.local.yaml'), 'permissions:\n  allow: ["Read(docs/**)"]\n');
    rewrite(
      path.join(project, '.claude', 'settings.json'),
      JSON.stringify({ permissions: { allow: ['Bash(make test)'] } }),
    );
    rewrite(
      path.join(project, '.claude', 'settings.local.json'),
      JSON.stringify({ permissions: { deny: ['Read(.env)'] } }),
    );
    rewrite(
      path.join(root, 'home', '.claude', 'settings.json'),
      JSON.stringify({ permissions: { ask: ['Bash(git push:*)'] } }),
    );
    s.addSessionRule({ behavior: 'allow', rule: 'Bash(npm test)' });
    const snap = await s.snapshot();
    const by = (src: string) => snap.rules.filter((r) => r.source === src).map((r) => `${r.behavior} ${r.text}`);
    expect(by('policy')).toEqual(['deny Bash(sudo:*)']);
    expect(by('cli')).toEqual(['deny Bash(curl:*)']);
    expect(by('session')).toEqual(['allow Bash(npm test)']);
    expect(by('local')).toEqual(['allow Read(docs/**)', 'deny Read(.env)']);
    expect(by('project')).toEqual(['ask Edit(src/**)', 'allow Bash(make test)']);
    expect(by('user')).toEqual(['allow Bash(make:*)', 'allow WebFetch(domain:x.com)', 'ask Bash(git push:*)']);
    expect(snap.ruleErrors).toEqual([
      expect.objectContaining({ rule: 'Bash(', source: 'user', file: path.join(root, 'gh', 'settings.yaml') }),
    ]);
    expect(snap.mode).toMatchObject({ mode: 'acceptEdits', source: 'project' });
  });

  it('a malformed file of each source is reported with path and line, and its last good rules stay', async () => {
    const { project, s } = store();
    const files = [
      path.join(root, 'policy.yaml'),
      path.join(root, 'gh', 'settings.yaml'),
      path.join(project, '.gatehouse', 'settings.yaml'),
      path.join(project, '.gatehouse', 'settings.local.yaml'),
      path.join(project, '.claude', 'settings.json'),
      path.join(project, '.claude', 'settings.local.json'),
      path.join(root, 'home', '.claude', 'settings.json'),
    ];
    files.forEach((f, i) => rewrite(f, JSON.stringify({ permissions: { deny: [`Bash(tool${i}:*)`] } }, null, 2)));
    const good = await s.snapshot();
    expect(good.rules).toHaveLength(files.length);
    expect(good.fileErrors).toEqual([]);
    files.forEach((f) => rewrite(f, '{\n  "permissions": {\n    "deny": ["Bash(x)",\n'));
    const bad = await s.snapshot();
    expect(bad.rules.map((r) => r.text).sort()).toEqual(good.rules.map((r) => r.text).sort());
    expect(bad.fileErrors.map((e) => e.file).sort()).toEqual([...files].sort());
    for (const e of bad.fileErrors) expect(e.line).toBeGreaterThan(0);
  });

  it('snapshots are cached until a file changes', async () => {
    const { s } = store();
    const a = await s.snapshot();
    expect(await s.snapshot()).toBe(a);
    rewrite(path.join(root, 'gh', 'settings.yaml'), 'permissions:\n  allow: ["Bash(ls)"]\n');
    const b = await s.snapshot();
    expect(b).not.toBe(a);
    expect(b.version).toBeGreaterThan(a.version);
    fs.rmSync(path.join(root, 'gh', 'settings.yaml'));
    expect((await s.snapshot()).rules).toEqual([]);
  });
});
