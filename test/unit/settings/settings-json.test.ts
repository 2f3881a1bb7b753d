import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseSettingsText } from '../../../src/main/core/settings/parse-settings';
import { settingsProblems } from '../../../src/main/core/settings/settings-problems';
import { SettingsStore } from '../../../src/main/core/settings/settings-store';
import { removeAfterWrites } from '../../support/remove-after-writes';

// `.gatehouse/settings.json` (and the user folder's settings.json) is read as what it is; a settings file in a place
// Gatehouse does not read (`~/.gatehouse/settings.json`, `settings.yml`) is reported, and only its deny and ask
// rules apply. Nothing a person wrote as settings is silently ignored.

let root: string;
let project: string;
let configDir: string;
let home: string;
let rewrites = 0;

beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-settings-json-')));
  project = path.join(root, 'project');
  configDir = path.join(root, 'config');
  home = path.join(root, 'home');
  for (const d of [path.join(project, '.gatehouse'), configDir, home]) fs.mkdirSync(d, { recursive: true });
});
// The stores write their last-good copies in the background: the folder goes once they are written.
afterEach(() => removeAfterWrites(root));

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  // Each version is seen as a change, however quickly the files are rewritten.
  const t = new Date(Date.now() + ++rewrites * 1000);
  fs.utimesSync(file, t, t);
}

function store(): SettingsStore {
  return new SettingsStore({
    projectRoot: project,
    configDir,
    home,
    env: { GATEHOUSE_POLICY: path.join(root, 'p.yaml') },
  });
}

const rulesOf = async (s: SettingsStore) =>
  (await s.snapshot()).rules.map((r) => `${r.source} ${r.behavior} ${r.text} ${r.file}`);

describe('parseSettingsText of a .json file', () => {
  it('reads strict JSON; its syntax errors are JSON errors with line and column', () => {
    const file = '/p/.gatehouse/settings.json';
    expect(parseSettingsText(file, '{"permissions": {"deny": ["Bash(rm:*)"]}}')).toMatchObject({
      ok: true,
      settings: { deny: ['Bash(rm:*)'] },
    });
    const comma = parseSettingsText(file, '{\n  "permissions": {\n    "deny": ["Bash(rm:*)"],\n  }\n}\n');
    expect(comma).toMatchObject({ ok: false, error: { file, line: 4, column: 3 } });
    expect(!comma.ok && comma.error.reason).toMatch(/^not valid JSON: /);
    expect(!comma.ok && comma.error.reason).not.toMatch(/position|YAML/);
    // YAML that is not JSON (it would be fine in settings.yaml) is a JSON error here.
    const yaml = parseSettingsText(file, 'permissions:\n  deny: [Bash]\n');
    expect(yaml).toMatchObject({ ok: false, error: { line: 1, column: 1 } });
    const cut = parseSettingsText(file, '{"permissions": {"deny": [');
    expect(cut).toMatchObject({ ok: false, error: { line: 1, column: 27 } });
    // Blank: no settings, as an empty YAML file.
    expect(parseSettingsText(file, '  \n')).toMatchObject({ ok: true, settings: { deny: [] } });
  });

  it("reports, with its line, each block Gatehouse reads only from settings.yaml; never the file's rules", () => {
    const file = '/c/settings.json';
    const r = parseSettingsText(
      file,
      JSON.stringify({ permissions: { ask: ['Edit'] }, sandbox: { enabled: false }, model: { name: 'x' } }, null, 2),
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.settings.ask).toEqual(['Edit']);
    expect(r.keyProblems.map((k) => [k.key, k.line, k.effect])).toEqual([
      ['sandbox', 7, 'ignored'],
      ['model', 10, 'ignored'],
    ]);
    expect(r.keyProblems[0]!.reason).toBe(
      '"sandbox" is not read from a JSON settings file: Gatehouse reads it from /c/settings.yaml (move it there)',
    );
  });

  it('keeps duplicate keys an error (JSON.parse would silently keep the last)', () => {
    const r = parseSettingsText('/x/settings.json', '{"permissions": {"deny": ["Bash"], "deny": []}}');
    expect(r.ok).toBe(false);
  });
});

describe('settings.json in the settings folders', () => {
  it('the project, local and user settings.json apply, beside their settings.yaml (both read)', async () => {
    write(path.join(project, '.gatehouse', 'settings.json'), '{"permissions": {"deny": ["Bash(rm:*)"]}}');
    write(path.join(project, '.gatehouse', 'settings.yaml'), 'permissions:\n  deny: ["Read(.env)"]\n');
    write(path.join(project, '.gatehouse', 'settings.local.json'), '{"permissions": {"allow": ["Bash(make)"]}}');
    write(path.join(configDir, 'settings.json'), '{"permissions": {"ask": ["WebFetch"]}}');
    expect((await rulesOf(store())).sort()).toEqual(
      [
        `project deny Bash(rm:*) ${path.join(project, '.gatehouse', 'settings.json')}`,
        `project deny Read(.env) ${path.join(project, '.gatehouse', 'settings.yaml')}`,
        `local allow Bash(make) ${path.join(project, '.gatehouse', 'settings.local.json')}`,
        `user ask WebFetch ${path.join(configDir, 'settings.json')}`,
      ].sort(),
    );
  });

  it("settings.yaml's mode applies to its scope; a different mode in the JSON twin is reported", async () => {
    write(path.join(project, '.gatehouse', 'settings.yaml'), 'permissions:\n  mode: strict\n');
    write(path.join(project, '.gatehouse', 'settings.json'), '{"permissions": {"mode": "acceptEdits"}}');
    const snap = await store().snapshot();
    expect(snap.mode).toMatchObject({ mode: 'strict', source: 'project' });
    expect(snap.keyProblems).toEqual([
      expect.objectContaining({
        file: path.join(project, '.gatehouse', 'settings.json'),
        key: 'permissions.mode',
        effect: `ignored: the mode of ${path.join(project, '.gatehouse', 'settings.yaml')} applies to this scope`,
      }),
    ]);
    // Alone, the JSON file's mode applies.
    fs.rmSync(path.join(project, '.gatehouse', 'settings.yaml'));
    expect((await store().snapshot()).mode).toMatchObject({ mode: 'acceptEdits', source: 'project' });
  });

  it('a broken settings.json that never loaded: reported with its line, and its deny rules are unknown (fail closed)', async () => {
    const file = path.join(project, '.gatehouse', 'settings.json');
    write(file, '{"permissions": {"deny": ["Bash(rm:*)",]}}');
    const snap = await store().snapshot();
    expect(snap.unknownRules).toEqual([expect.objectContaining({ file, source: 'project' })]);
    expect(settingsProblems(snap)).toEqual([
      expect.objectContaining({
        file,
        kind: 'file',
        line: 1,
        effect: expect.stringContaining('deny and ask rules are unknown'),
      }),
    ]);
  });
});

describe('settings files Gatehouse does not read', () => {
  it('~/.gatehouse/settings.json: reported with the file it means; its deny and ask rules apply, nothing else', async () => {
    const stray = path.join(home, '.gatehouse', 'settings.json');
    write(
      stray,
      JSON.stringify({
        permissions: { deny: ['Bash(rm:*)'], ask: ['Edit'], allow: ['Bash'], mode: 'bypassPermissions' },
      }),
    );
    const snap = await store().snapshot();
    expect(snap.rules.map((r) => `${r.behavior} ${r.text}`).sort()).toEqual(['ask Edit', 'deny Bash(rm:*)']);
    expect(snap.mode).toBeNull();
    expect(snap.unknownRules).toEqual([]);
    const [problem] = settingsProblems(snap);
    expect(problem).toMatchObject({
      file: stray,
      kind: 'file',
      suggestion: path.join(configDir, 'settings.json'),
      reason: `not a settings file Gatehouse reads: did you mean ${path.join(configDir, 'settings.json')}?`,
    });
    expect(problem!.effect).toMatch(/only its deny and ask rules are applied/);
  });

  it('.gatehouse/settings.yml: reported; broken and never good, its rules are unknown (fail closed)', async () => {
    const yml = path.join(project, '.gatehouse', 'settings.yml');
    write(yml, 'permissions:\n  allow: ["Bash"]\n  deny: ["Read(.env)"]\n');
    const s = store();
    expect((await s.snapshot()).rules.map((r) => `${r.source} ${r.behavior} ${r.text}`)).toEqual([
      'project deny Read(.env)',
    ]);
    expect((await s.snapshot()).fileErrors[0]!.reason).toContain(
      `did you mean ${path.join(project, '.gatehouse', 'settings.yaml')}?`,
    );
    const other = path.join(project, '.gatehouse', 'settings.local.yml');
    write(other, 'permissions:\n  deny: [\n');
    const snap = await s.snapshot();
    expect(snap.unknownRules.map((u) => u.file)).toEqual([other]);
    expect(snap.fileErrors.find((e) => e.file === other)!.reason).toMatch(/did you mean .*settings\.local\.yaml\?$/);
  });

  it('a Gatehouse home of ~/.gatehouse is read as the user folder, not reported', async () => {
    const own = path.join(home, '.gatehouse');
    write(path.join(own, 'settings.json'), '{"permissions": {"allow": ["Bash(make)"]}}');
    const s = new SettingsStore({
      projectRoot: project,
      configDir: own,
      home,
      env: { GATEHOUSE_POLICY: path.join(root, 'p.yaml') },
    });
    const snap = await s.snapshot();
    expect(snap.fileErrors).toEqual([]);
    expect(snap.rules.map((r) => `${r.source} ${r.behavior} ${r.text}`)).toEqual(['user allow Bash(make)']);
  });
});
