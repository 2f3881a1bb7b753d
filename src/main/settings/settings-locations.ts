import path from 'node:path';
import type { RuleSourceName } from '../permission/rules/rule-types';

/** One settings file the engine reads, and the rule source its rules belong to. */
export interface SettingsLocation {
  source: Exclude<RuleSourceName, 'cli' | 'session'>;
  file: string;
  /** `gatehouse` YAML files may be edited by `gatehouse rules add`; Claude Code's files are read only. */
  format: 'gatehouse' | 'claude';
}

/** The managed policy file: `GATEHOUSE_POLICY` when set, else the OS's machine-wide location. */
export function policyFile(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  const override = env.GATEHOUSE_POLICY;
  if (override && override.trim()) return path.resolve(override);
  if (platform === 'darwin') return '/Library/Application Support/Gatehouse/policy.yaml';
  if (platform === 'win32')
    return path.win32.join(env.ProgramData || env.PROGRAMDATA || 'C:\\ProgramData', 'Gatehouse', 'policy.yaml');
  return '/etc/gatehouse/policy.yaml';
}

export function userSettingsFile(configDir: string): string {
  return path.join(configDir, 'settings.yaml');
}
export function projectSettingsFile(projectRoot: string): string {
  return path.join(projectRoot, '.gatehouse', 'settings.yaml');
}
export function localSettingsFile(projectRoot: string): string {
  return path.join(projectRoot, '.gatehouse', 'settings.local.yaml');
}

/** The settings file a `--scope` names (only Gatehouse's own files are written). */
export function scopeFile(scope: 'user' | 'project' | 'local', projectRoot: string, configDir: string): string {
  if (scope === 'user') return userSettingsFile(configDir);
  return scope === 'project' ? projectSettingsFile(projectRoot) : localSettingsFile(projectRoot);
}

/** Every settings file, in the order they are listed (policy first). */
export function settingsLocations(opts: {
  projectRoot: string;
  configDir: string;
  home: string;
  env: NodeJS.ProcessEnv;
}): SettingsLocation[] {
  return [
    { source: 'policy', file: policyFile(opts.env), format: 'gatehouse' },
    { source: 'local', file: localSettingsFile(opts.projectRoot), format: 'gatehouse' },
    { source: 'local', file: path.join(opts.projectRoot, '.claude', 'settings.local.json'), format: 'claude' },
    { source: 'project', file: projectSettingsFile(opts.projectRoot), format: 'gatehouse' },
    { source: 'project', file: path.join(opts.projectRoot, '.claude', 'settings.json'), format: 'claude' },
    { source: 'user', file: userSettingsFile(opts.configDir), format: 'gatehouse' },
    { source: 'user', file: path.join(opts.home, '.claude', 'settings.json'), format: 'claude' },
  ];
}
