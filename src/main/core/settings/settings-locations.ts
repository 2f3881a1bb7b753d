import path from 'node:path';
import type { RuleSourceName } from '../rule-syntax/rule-types';

/** One settings file the engine reads, and the rule source its rules belong to. */
export interface SettingsLocation {
  source: Exclude<RuleSourceName, 'cli' | 'session'>;
  file: string;
  /** `gatehouse` YAML files may be edited by `gatehouse rules add`; Claude Code's files are read only. */
  format: 'gatehouse' | 'claude';
  /**
   * A file in a place Gatehouse does not read settings from, that a person may well have meant as settings
   * (`~/.gatehouse/settings.json`, `.gatehouse/settings.yml`): never silently ignored. It is reported as an error
   * naming the file Gatehouse reads (`expected`), and only its deny and ask rules apply (it never loosens anything).
   */
  misplaced?: { expected: string };
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

/**
 * The JSON twin of a Gatehouse settings file (`settings.yaml` -> `settings.json`): read as well, as what it is
 * (JSON, its errors reported as JSON errors), so a Claude Code user's `.gatehouse/settings.json` applies. Only the
 * YAML file is ever written by Gatehouse.
 */
function jsonTwin(yamlFile: string): string {
  return yamlFile.replace(/\.yaml$/, '.json');
}

/** Whether a settings file is read as JSON (its name ends in `.json`) rather than YAML. */
export function isJsonSettingsFile(file: string): boolean {
  return file.endsWith('.json');
}

/**
 * Files a person may have written as settings that Gatehouse does not read, each with the file it does read: the
 * `.yml` spelling of each YAML file, and a `~/.gatehouse` folder (Claude Code keeps its settings in `~/.claude`;
 * Gatehouse's user settings live in its config folder). Empty of any name that is a real location.
 */
function misplacedLocations(
  real: readonly SettingsLocation[],
  opts: { projectRoot: string; configDir: string; home: string },
): SettingsLocation[] {
  const yml = (source: SettingsLocation['source'], file: string): SettingsLocation => ({
    source,
    file: file.replace(/\.yaml$/, '.yml'),
    format: 'gatehouse',
    misplaced: { expected: file },
  });
  const dotGatehouse = path.join(opts.home, '.gatehouse');
  const userFile = userSettingsFile(opts.configDir);
  const candidates: SettingsLocation[] = [
    yml('local', localSettingsFile(opts.projectRoot)),
    yml('project', projectSettingsFile(opts.projectRoot)),
    yml('user', userFile),
    ...['settings.yaml', 'settings.yml', 'settings.json'].map((name) => ({
      source: 'user' as const,
      file: path.join(dotGatehouse, name),
      format: 'gatehouse' as const,
      misplaced: { expected: name === 'settings.json' ? jsonTwin(userFile) : userFile },
    })),
  ];
  const taken = new Set(real.map((l) => l.file));
  const seen = new Set<string>();
  return candidates.filter((c) => {
    if (taken.has(c.file) || seen.has(c.file)) return false;
    seen.add(c.file);
    return true;
  });
}

/** Every settings file, in the order they are listed (policy first). */
export function settingsLocations(opts: {
  projectRoot: string;
  configDir: string;
  home: string;
  env: NodeJS.ProcessEnv;
}): SettingsLocation[] {
  const real: SettingsLocation[] = [
    { source: 'policy', file: policyFile(opts.env), format: 'gatehouse' },
    { source: 'local', file: localSettingsFile(opts.projectRoot), format: 'gatehouse' },
    { source: 'local', file: jsonTwin(localSettingsFile(opts.projectRoot)), format: 'gatehouse' },
    { source: 'local', file: path.join(opts.projectRoot, '.claude', 'settings.local.json'), format: 'claude' },
    { source: 'project', file: projectSettingsFile(opts.projectRoot), format: 'gatehouse' },
    { source: 'project', file: jsonTwin(projectSettingsFile(opts.projectRoot)), format: 'gatehouse' },
    { source: 'project', file: path.join(opts.projectRoot, '.claude', 'settings.json'), format: 'claude' },
    { source: 'user', file: userSettingsFile(opts.configDir), format: 'gatehouse' },
    { source: 'user', file: jsonTwin(userSettingsFile(opts.configDir)), format: 'gatehouse' },
    { source: 'user', file: path.join(opts.home, '.claude', 'settings.json'), format: 'claude' },
  ];
  return [...real, ...misplacedLocations(real, opts)];
}
