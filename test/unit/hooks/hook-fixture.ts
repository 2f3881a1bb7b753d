import fs from 'node:fs';
import path from 'node:path';
import { HookRuntime } from '../../../src/main/core/hooks/hook-runtime';
import { projectHookRuntime } from '../../../src/main/core/hooks/hook-sandbox';
import type { Fixture } from '../permission/fixture';

export type HookFile = 'user' | 'project' | 'local' | 'policy' | 'claudeProject' | 'claudeLocal' | 'claudeUser';

export function settingsFileOf(fx: Fixture, which: HookFile): string {
  const files: Record<HookFile, string> = {
    user: path.join(fx.configDir, 'settings.yaml'),
    project: path.join(fx.project, '.gatehouse/settings.yaml'),
    local: path.join(fx.project, '.gatehouse/settings.local.yaml'),
    policy: fx.policy,
    claudeProject: path.join(fx.project, '.claude/settings.json'),
    claudeLocal: path.join(fx.project, '.claude/settings.local.json'),
    claudeUser: path.join(fx.home, '.claude/settings.json'),
  };
  return files[which];
}

/** Writes a settings file whose `hooks` block runs `command` for `event` (Claude Code's shape). */
export function addHook(
  fx: Fixture,
  which: HookFile,
  event: string,
  command: string,
  opts: { matcher?: string; timeout?: number; permissions?: Record<string, unknown> } = {},
): void {
  const hook: Record<string, unknown> = { type: 'command', command };
  if (opts.timeout !== undefined) hook.timeout = opts.timeout;
  const group: Record<string, unknown> = { hooks: [hook] };
  if (opts.matcher !== undefined) group.matcher = opts.matcher;
  const body: Record<string, unknown> = { hooks: { [event]: [group] } };
  if (opts.permissions) body.permissions = opts.permissions;
  fx.write(settingsFileOf(fx, which), JSON.stringify(body, null, 2));
}

/** A hook script (sh or node) in the temp tree, outside the project unless `rel` says otherwise. */
export function script(fx: Fixture, name: string, body: string, where: 'root' | 'project' = 'root'): string {
  const file = where === 'project' ? path.join(fx.project, '.claude/hooks', name) : path.join(fx.root, 'hooks', name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, body, { mode: 0o755 });
  return file;
}

/** A runtime for user/policy hooks only (project hooks get no sandbox: they fail, and so ask). */
export function userRuntime(fx: Fixture): HookRuntime {
  return new HookRuntime({ projectRoot: fx.project, env: fx.env, sessionId: 'test-session' });
}

/** A runtime whose project hooks run in the real OS sandbox. */
export function sandboxRuntime(fx: Fixture): { runtime: HookRuntime; dispose(): Promise<void> } {
  return projectHookRuntime({
    projectRoot: fx.project,
    configDir: fx.configDir,
    env: fx.env,
    sessionId: 'test-session',
  });
}
