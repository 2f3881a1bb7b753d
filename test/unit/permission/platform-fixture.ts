import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AgentMode, PermissionMode, RuleBehavior } from '../../../src/shared/permission';
import type { PathSystem } from '../../../src/shared/node/platform-path';
import { createPermissionEngine } from '../../../src/main/core/permission/create-engine';
import { type PermissionEngine } from '../../../src/main/core/permission/engine';
import { removeAfterWrites } from '../../support/remove-after-writes';
import { simulatedDisk, type SimulatedDisk } from './platform-disk';

/**
 * The corpus's fixture tree (a project with secrets, a .git folder and links pointing out; a folder beside it; a
 * home with an SSH key), real files in a temporary folder, judged by an engine that sees them under another
 * platform's paths: `root` (`C:\`, `\\srv\share\`, or the folder itself for a POSIX volume) holds `project`,
 * `outside`, `userhome` and `gh` (the user config directory).
 */
export interface PlatformFixture {
  sys: PathSystem;
  disk: SimulatedDisk;
  /** Engine paths of the tree, as the corpus names them. */
  vars: { root: string; project: string; outside: string; userhome: string };
  /** Writes a settings file (`project`: `.gatehouse/settings.yaml`, ...) with these permissions. */
  settings(which: SettingsFile, perms: Record<string, unknown>): void;
  /** Removes every settings file, and the project's `.gatehouse/` and `.claude/` folders with them. */
  clearSettings(): void;
  engine(opts?: {
    mode?: PermissionMode;
    agentMode?: AgentMode;
    trusted?: boolean;
    cli?: { behavior: RuleBehavior; rule: string }[];
  }): Promise<PermissionEngine>;
  cleanup(): Promise<void>;
}

export type SettingsFile = 'user' | 'project' | 'local' | 'policy' | 'claudeProject' | 'claudeLocal';

const SETTINGS_FILES: Record<SettingsFile, string> = {
  user: 'gh/settings.yaml',
  project: 'project/.gatehouse/settings.yaml',
  local: 'project/.gatehouse/settings.local.yaml',
  policy: 'policy.yaml',
  claudeProject: 'project/.claude/settings.json',
  claudeLocal: 'project/.claude/settings.local.json',
};

export function makePlatformFixture(opts: {
  sys: PathSystem;
  /** The engine path of the temporary folder; absent: the folder itself (a POSIX volume). */
  root?: string;
  /** The simulated volume folds case. */
  foldCase: boolean;
  /** Give the engine `sys` (its case folding included); false: let it ask the volume (the probe). */
  inject: boolean;
}): PlatformFixture {
  const host = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-platform-')));
  const p = (...s: string[]): string => path.join(host, ...s);
  for (const d of ['project/src', 'project/.git/hooks', 'project/secrets', 'project/private', 'project/docs'])
    fs.mkdirSync(p(d), { recursive: true });
  for (const d of ['outside', 'userhome/.ssh', 'gh']) fs.mkdirSync(p(d), { recursive: true });
  fs.writeFileSync(p('project/src/index.ts'), 'export const x = 1;\n');
  fs.writeFileSync(p('project/README.md'), '# demo\n');
  fs.writeFileSync(p('project/.env'), 'API_KEY=do-not-leak\n');
  fs.writeFileSync(p('project/.git/HEAD'), 'ref: refs/heads/main\n');
  fs.writeFileSync(p('project/secrets/key.txt'), 'k\n');
  fs.writeFileSync(p('project/private/a.txt'), 'p\n');
  fs.writeFileSync(p('outside/secret.txt'), 'outside\n');
  fs.writeFileSync(p('userhome/.ssh/id_rsa'), 'PRIVATE\n');
  fs.symlinkSync('../outside', p('project/link-out'));
  fs.symlinkSync('../outside/secret.txt', p('project/link-file'));
  const sys = opts.sys;
  const root = opts.root ?? host;
  const disk = simulatedDisk({ sys, root, host, foldCase: opts.foldCase });
  const e = (rel: string): string => disk.enginePath(p(rel));
  const vars = { root: sys.normalize(root), project: e('project'), outside: e('outside'), userhome: e('userhome') };
  const env = {
    PATH: process.env.PATH,
    HOME: vars.userhome,
    GATEHOUSE_HOME: e('gh'),
    GATEHOUSE_POLICY: e('policy.yaml'),
  };
  const engines: PermissionEngine[] = [];
  let bump = 0;
  return {
    sys,
    disk,
    vars,
    settings(which, perms) {
      const file = p(SETTINGS_FILES[which]);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify({ permissions: perms }, null, 2));
      const t = new Date(Date.now() + ++bump * 1000);
      fs.utimesSync(file, t, t);
    },
    clearSettings() {
      for (const file of Object.values(SETTINGS_FILES)) fs.rmSync(p(file), { force: true });
      for (const dir of ['project/.gatehouse', 'project/.claude']) fs.rmSync(p(dir), { recursive: true, force: true });
    },
    async engine(o = {}) {
      const trusted = o.trusted ?? true;
      const engine = await createPermissionEngine({
        projectRoot: vars.project,
        configDir: e('gh'),
        home: vars.userhome,
        env,
        trust: { isTrusted: () => Promise.resolve(trusted) },
        cliRules: o.cli,
        mode: o.mode,
        agentMode: o.agentMode,
        audit: null,
        disk,
        ...(opts.inject ? { paths: sys } : {}),
      });
      engines.push(engine);
      return engine;
    },
    async cleanup() {
      await Promise.all(engines.splice(0).map((engine) => engine.flushAudit()));
      await removeAfterWrites(host);
    },
  };
}
