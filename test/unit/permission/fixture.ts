import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PermissionMode, AgentMode, RuleBehavior } from '../../../src/shared/permission';
import { createPermissionEngine } from '../../../src/main/core/permission/create-engine';
import { type PermissionEngine } from '../../../src/main/core/permission/engine';
import type { TrustOracle } from '../../../src/main/core/permission/trust-oracle';
import { runCli } from '../../../src/main/shells/cli/main';
import { removeAfterWrites } from '../../support/remove-after-writes';

/** A real temp tree like the corpus's: a project with secrets, a .git folder and symlinks pointing out. */
export interface Fixture {
  root: string;
  project: string;
  outside: string;
  home: string;
  configDir: string;
  policy: string;
  env: NodeJS.ProcessEnv;
  trust: { trusted: boolean } & TrustOracle;
  write(rel: string, text: string): void;
  settings(
    which: 'user' | 'project' | 'local' | 'policy' | 'claudeProject' | 'claudeLocal' | 'claudeUser',
    perms: Record<string, unknown>,
  ): void;
  engine(opts?: {
    mode?: PermissionMode;
    agentMode?: AgentMode;
    cli?: { behavior: RuleBehavior; rule: string }[];
  }): Promise<PermissionEngine>;
  /** Waits for the engines' background writes (last good settings), then removes the folder. */
  cleanup(): Promise<void>;
}

export function makeFixture(): Fixture {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-engine-')));
  const p = (...s: string[]) => path.join(root, ...s);
  for (const d of [
    'project/src',
    'project/.git/hooks',
    'project/secrets',
    'project/docs',
    'outside',
    'userhome/.ssh',
    'gh',
  ])
    fs.mkdirSync(p(d), { recursive: true });
  fs.writeFileSync(p('project/src/index.ts'), 'export const x = 1;\n');
  fs.writeFileSync(p('project/README.md'), '# demo\n');
  fs.writeFileSync(p('project/.env'), 'API_KEY=do-not-leak\n');
  fs.writeFileSync(p('project/.git/HEAD'), 'ref: refs/heads/main\n');
  fs.writeFileSync(p('project/secrets/key.txt'), 'k\n');
  fs.writeFileSync(p('outside/secret.txt'), 'outside\n');
  fs.writeFileSync(p('userhome/.ssh/id_rsa'), 'PRIVATE\n');
  fs.symlinkSync('../outside', p('project/link-out'));
  fs.symlinkSync('../outside/secret.txt', p('project/link-file'));
  const trust = { trusted: true, isTrusted: () => Promise.resolve(trust.trusted) };
  const env = {
    PATH: process.env.PATH,
    HOME: p('userhome'),
    GATEHOUSE_HOME: p('gh'),
    GATEHOUSE_POLICY: p('policy.yaml'),
  };
  const files = {
    user: p('gh/settings.yaml'),
    project: p('project/.gatehouse/settings.yaml'),
    local: p('project/.gatehouse/settings.local.yaml'),
    policy: p('policy.yaml'),
    claudeProject: p('project/.claude/settings.json'),
    claudeLocal: p('project/.claude/settings.local.json'),
    claudeUser: p('userhome/.claude/settings.json'),
  };
  let bump = 0;
  const engines: PermissionEngine[] = [];
  const fx: Fixture = {
    root,
    project: p('project'),
    outside: p('outside'),
    home: p('userhome'),
    configDir: p('gh'),
    policy: files.policy,
    env,
    trust,
    write(rel, text) {
      const file = path.isAbsolute(rel) ? rel : p('project', rel);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
      const t = new Date(Date.now() + ++bump * 1000);
      fs.utimesSync(file, t, t);
    },
    settings(which, perms) {
      fx.write(files[which], JSON.stringify({ permissions: perms }, null, 2));
    },
    engine: async (opts = {}) => {
      const engine = await createPermissionEngine({
        projectRoot: p('project'),
        configDir: p('gh'),
        env,
        trust,
        cliRules: opts.cli,
        mode: opts.mode,
        agentMode: opts.agentMode,
        audit: null,
      });
      engines.push(engine);
      return engine;
    },
    cleanup: async () => {
      await Promise.all(engines.splice(0).map((e) => e.flushAudit()));
      await removeAfterWrites(root);
    },
  };
  return fx;
}

export const cmd = (command: string) => ({ tool: 'run_command', input: { command } });
export const read = (p: string) => ({ tool: 'read_file', input: { path: p } });
export const write = (p: string) => ({ tool: 'write_file', input: { path: p, content: 'x\n' } });
export const edit = (p: string) => ({ tool: 'edit_file', input: { path: p, old_string: 'x', new_string: 'y' } });

/** Runs the CLI in-process in the fixture's project with its environment; what it printed, line by line. */
export async function runCliIn(fx: Fixture, args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, { out: (l) => out.push(l), err: (l) => err.push(l), env: fx.env, cwd: fx.project });
  return { code, out, err };
}
