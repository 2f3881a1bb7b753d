import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRulesHandlers } from '../../src/main/services/app/rules-handlers';
import { AuditLog } from '../../src/main/core/permission/audit-log';
import { createPermissionEngine } from '../../src/main/core/permission/create-engine';
import { applyApproval } from '../../src/main/core/permission/approvals';
import { fixedTrust } from '../../src/main/core/permission/trust-oracle';
import { parseSettingsText } from '../../src/main/core/settings/parse-settings';
import { codeCacheEnv } from '../support/code-cache-env';
import { CLI } from './agent-helpers';
import { removeAfterWrites } from '../support/remove-after-writes';

// The app's settings writes (the rules editor's add/remove, an "always" approval) are asynchronous now: they still
// write atomically under the file's lock, so `gatehouse rules add` processes writing the same file at the same
// moment lose nothing, and the local file is kept out of git once.

let root: string;
let project: string;
let configDir: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-app-writers-')));
  project = path.join(root, 'project');
  configDir = path.join(root, 'config');
  fs.mkdirSync(project, { recursive: true });
  execFileSync('git', ['init', '-q'], { cwd: project });
  env = { PATH: process.env.PATH, HOME: path.join(root, 'home'), GATEHOUSE_HOME: configDir, ...codeCacheEnv() };
});
afterEach(() => removeAfterWrites(root));

function cliAdd(rule: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [CLI, 'rules', 'add', '--scope', 'local', '--behavior', 'allow', rule, '--project', project],
      { env, cwd: root, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

const localFile = (): string => path.join(project, '.gatehouse', 'settings.local.yaml');

function localAllow(): string[] {
  const parsed = parseSettingsText(localFile(), fs.readFileSync(localFile(), 'utf8'));
  if (!parsed.ok) throw new Error(`${localFile()} was left broken: ${parsed.error.reason}`);
  return [...parsed.settings.allow].sort();
}

describe('the app and CLI processes writing one settings file at once', () => {
  it('rules editor adds, an "always" approval and `gatehouse rules add` processes: every rule lands', async () => {
    const handlers = createRulesHandlers({ currentProject: () => project, configDir, env, trust: fixedTrust(true) });
    const engine = await createPermissionEngine({
      projectRoot: project,
      configDir,
      env,
      trust: fixedTrust(true),
      audit: AuditLog.simulations(configDir),
    });
    const cliRules = Array.from({ length: 6 }, (_, i) => `Bash(cli-${i}:*)`);
    const appRules = Array.from({ length: 6 }, (_, i) => `Bash(app-${i}:*)`);
    const approved = 'Bash(npm install:*)';
    const [cli, app, always] = await Promise.all([
      Promise.all(cliRules.map(cliAdd)),
      Promise.all(appRules.map((rule) => handlers.addRule({ rule, behavior: 'allow', scope: 'local' }))),
      applyApproval(
        engine,
        { tool: 'run_command', input: { command: 'npm install left-pad' } },
        { kind: 'always', rules: [approved] },
      ),
    ]);
    for (const r of cli) expect(r.code, r.stderr).toBe(0);
    for (const r of app) expect(r).toEqual({ changed: true, file: localFile() });
    expect(always).toMatchObject({ decision: 'allow', source: 'approval' });
    expect(localAllow()).toEqual([...cliRules, ...appRules, approved].sort());
    // Written atomically: no temp file and no lock is left beside it.
    expect(fs.readdirSync(path.join(project, '.gatehouse'))).toEqual(['settings.local.yaml']);
    // Kept out of git, once, however many writers asked.
    const exclude = fs.readFileSync(path.join(project, '.git', 'info', 'exclude'), 'utf8');
    expect(exclude.split('\n').filter((l) => l === '/.gatehouse/settings.local.yaml')).toHaveLength(1);

    // Removing while CLI processes add: the removed rules are gone, the added ones are there.
    const more = Array.from({ length: 4 }, (_, i) => `Bash(more-${i}:*)`);
    const [removed, added] = await Promise.all([
      Promise.all(appRules.map((rule) => handlers.removeRule({ rule, behavior: 'allow', scope: 'local' }))),
      Promise.all(more.map(cliAdd)),
    ]);
    for (const r of removed) expect(r.changed).toBe(true);
    for (const r of added) expect(r.code, r.stderr).toBe(0);
    expect(localAllow()).toEqual([...cliRules, approved, ...more].sort());
    await engine.flushAudit();
  }, 240_000);
});
