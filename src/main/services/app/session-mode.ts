import type { ApiEvent } from '../../../shared/api';
import { GatehouseError } from '../../../shared/errors';
import type { PermissionModeState } from '../../../shared/modes-contract';
import type { PermissionMode } from '../../../shared/permission';
import { homeDir } from '../../core/fs/config-dir';
import { settingsModeInForce } from '../../core/permission/engine-state';
import { trustedOrFalse, type TrustOracle } from '../../core/permission/trust-oracle';
import { SettingsStore } from '../../core/settings/settings-store';

export interface SessionModeOptions {
  configDir: string;
  env: NodeJS.ProcessEnv;
  trust: TrustOracle;
  project: () => string | null;
  emit: (event: ApiEvent) => void;
}

const BYPASS_UNTRUSTED = 'bypass is unavailable in a project that is not trusted: trust the project first';
const AUTO_UNTRUSTED = 'auto is unavailable in a project that is not trusted: trust the project first';

/** The modes an untrusted project cannot have: they let calls through without the person. */
const TRUST_ONLY: ReadonlyMap<PermissionMode, string> = new Map([
  ['bypassPermissions', BYPASS_UNTRUSTED],
  ['auto', AUTO_UNTRUSTED],
]);

/**
 * The chat session's permission mode, chosen in the page. It reaches the engine as the per-call `mode` override
 * (the same override `gatehouse run --mode` sets), asked before every call. Bypass and auto are refused in an
 * untrusted project, and dropped (back to the settings' mode) as soon as the project stops being trusted.
 */
export class SessionMode {
  private chosen: PermissionMode | null = null;

  constructor(private readonly options: SessionModeOptions) {}

  async state(): Promise<PermissionModeState> {
    await this.dropBypassIfUntrusted();
    const project = this.options.project();
    const trusted = project !== null && (await this.isTrusted(project));
    const fromSettings = project ? await this.settingsMode(project, trusted) : null;
    const settingsMode = fromSettings?.mode ?? 'default';
    return {
      mode: this.chosen ?? settingsMode,
      source: this.chosen ? 'session' : fromSettings ? 'settings' : 'default',
      settingsFile: fromSettings?.file ?? null,
      settingsMode,
      trusted,
      bypassUnavailable: project === null ? 'open a project first' : trusted ? null : BYPASS_UNTRUSTED,
      autoUnavailable: project === null ? 'open a project first' : trusted ? null : AUTO_UNTRUSTED,
    };
  }

  /** The page's choice; null clears it. Bypass in an untrusted project is refused and changes nothing. */
  async set(mode: PermissionMode | null): Promise<PermissionModeState> {
    const project = this.options.project();
    if (!project) throw new GatehouseError('BAD_REQUEST', 'open a project folder before choosing a permission mode');
    const refused = mode === null ? undefined : TRUST_ONLY.get(mode);
    if (refused !== undefined && !(await this.isTrusted(project)))
      throw new GatehouseError('FORBIDDEN', `${refused} (${project})`);
    this.chosen = mode;
    return this.state();
  }

  /** Asked by the agent session before every call: the session's mode, with bypass dropped when trust is gone. */
  readonly forCall = async (): Promise<PermissionMode | undefined> => {
    await this.dropBypassIfUntrusted();
    return this.chosen ?? undefined;
  };

  /** Trust changed (set or revoked): bypass ends at once when the project is no longer trusted. */
  async dropBypassIfUntrusted(): Promise<void> {
    const project = this.options.project();
    const chosen = this.chosen;
    if (chosen === null || !TRUST_ONLY.has(chosen) || (project !== null && (await this.isTrusted(project)))) return;
    if (this.chosen !== chosen) return; // dropped meanwhile by another caller: announced once
    this.chosen = null;
    const name = chosen === 'auto' ? 'auto' : 'bypass';
    this.options.emit({
      type: 'permissionModeChanged',
      state: await this.state(),
      reason: `the project is no longer trusted: ${name} ended, the settings\u2019 mode applies`,
    });
  }

  /** The session ended (new session, another project): its choice ends with it. */
  async reset(): Promise<void> {
    if (this.chosen === null) return;
    this.chosen = null;
    this.options.emit({
      type: 'permissionModeChanged',
      state: await this.state(),
      reason: 'a new session starts with the settings\u2019 mode',
    });
  }

  private async settingsMode(
    project: string,
    trusted: boolean,
  ): Promise<{ mode: PermissionMode; file: string } | null> {
    const { configDir, env } = this.options;
    try {
      const store = new SettingsStore({ projectRoot: project, configDir, home: homeDir(env), env });
      const snapshot = await store.snapshot();
      return settingsModeInForce(snapshot, trusted);
    } catch {
      return null;
    }
  }

  private isTrusted(project: string): Promise<boolean> {
    return trustedOrFalse(this.options.trust, project);
  }
}
