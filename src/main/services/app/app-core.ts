import fs from 'node:fs';
import path from 'node:path';
import type { ApiEvent } from '../../../shared/api';
import { GatehouseError } from '../../../shared/errors';
import { GATEHOUSE_VERSION } from '../../../shared/version';
import type { WorkerHost } from '../../core/worker-host-types';
import type { ApiHandlers } from './api-dispatch';
import { createAuditHandlers } from './audit-handlers';
import { createChatHandlers } from './chat-handlers';
import { createRewindHandlers } from './rewind-handlers';
import { createHooksHandlers } from './hooks-handlers';
import { createMcpHandlers } from './mcp-handlers';
import { createSkillsHandlers } from './skills-handlers';
import { completeFolder } from './path-completion';
import { homeDir } from '../../core/fs/config-dir';
import { createModesHandlers } from './modes-handlers';
import { ChatService } from './chat-service';
import { RecentProjects } from './recent-projects';
import { startupProject } from './startup-project';
import { createRulesHandlers } from './rules-handlers';
import { createRuleBuilderHandlers } from './rule-builder/rule-builder-handlers';
import { createSandboxHandlers } from './sandbox-handlers';
import { SettingsFileKeyStore } from './secret-store';
import type { SecretStore } from './secret-store';
import { createSettingsHandlers } from './settings-handlers';
import { createCheckpointSettingsHandlers } from './checkpoint-settings-handlers';
import { createTrustHandlers } from './trust-handlers';
import { createUpdatesHandlers } from './updates-handlers';
import type { UpdatesSource } from './updates-handlers';
import { storeOracle } from '../../core/trust/trust-extensions';
import { TrustStore } from '../../core/trust/trust-store';

export interface AppCoreOptions {
  shell: 'desktop' | 'browser';
  worker: WorkerHost;
  configDir: string;
  project: string | null;
  /** The desktop shell's OS folder picker; absent in the browser shell. */
  pickFolder?: () => Promise<string | null>;
  /** The server's environment (model key and base URL for the chat); defaults to process.env. */
  env?: NodeJS.ProcessEnv;
  /** Where the Settings page's "Save key" stores the model key: the desktop injects its OS-encrypted store; default settings.yaml. */
  secrets?: SecretStore;
  /** The desktop's updater (electron-updater); absent in shells that do not update themselves. */
  updates?: UpdatesSource;
}

/**
 * What every shell serves to the renderer: one object holding the worker, the open project and the handlers of
 * every API channel. Electron's ipcMain and the browser shell's socket both call `handlers` through dispatchApi.
 */
export class AppCore {
  private project: string | null;
  private readonly listeners = new Set<(event: ApiEvent) => void>();
  /** Listeners that are not a page (the desktop menu): they get events but cannot answer an approval. */
  private readonly watchers = new Set<(event: ApiEvent) => void>();
  readonly recent: RecentProjects;
  /** Project trust: the permission engine asks it whether the open project is trusted. */
  readonly trust: TrustStore;
  readonly handlers: ApiHandlers;
  /** The chat: one agent session on this worker for the open project. */
  readonly chat: ChatService;
  /** Writes started without waiting for them (see `settled`). */
  private readonly background = new Set<Promise<unknown>>();

  constructor(private readonly options: AppCoreOptions) {
    this.recent = new RecentProjects(options.configDir);
    this.trust = new TrustStore({ configDir: options.configDir });
    this.project = options.project ? startupProject(options.project) : null;
    if (this.project) this.noteOpened(this.project);
    options.worker.onStatus((status) => this.emit({ type: 'workerStatus', status }));
    options.updates?.onStatus((status) => this.emit({ type: 'updateStatus', status }));
    const secrets = options.secrets ?? new SettingsFileKeyStore(options.configDir);
    this.chat = new ChatService({
      host: options.worker,
      configDir: options.configDir,
      env: options.env ?? process.env,
      trust: storeOracle(this.trust),
      project: () => this.project,
      emit: (event) => this.emit(event),
      hasListeners: () => this.listeners.size > 0,
      ...(secrets.kind === 'secure-store'
        ? { storedKey: () => secrets.get(), storedKeyReady: async () => secrets.ready?.() }
        : {}),
    });
    this.handlers = {
      getAppInfo: async () => ({
        name: 'Gatehouse',
        version: GATEHOUSE_VERSION,
        shell: options.shell,
        project: this.project,
        worker: options.worker.status(),
      }),
      pingWorker: async () => options.worker.request('info', {}),
      openFolderDialog: async () => {
        if (!options.pickFolder)
          throw new GatehouseError('FORBIDDEN', 'no folder picker in this shell: start it with --project DIR');
        return { path: await options.pickFolder() };
      },
      openProject: async ({ path: dir }) => ({ path: await this.openProject(dir) }),
      listRecentProjects: async () => {
        await this.recent.settled();
        return { paths: this.recent.list() };
      },
      completePath: async ({ prefix }) => ({ folders: await completeFolder(prefix, homeDir(options.env)) }),
      ...createAuditHandlers({
        configDir: options.configDir,
        currentProject: () => this.project,
        home: homeDir(options.env),
      }),
      ...createTrustHandlers(this, this.trust, async (p) => {
        this.emit({ type: 'trustChanged', path: p });
        // Revoking trust ends a session's bypass at once (and before its next call at the latest).
        await this.chat.modes.dropBypassIfUntrusted();
      }),
      ...createHooksHandlers({
        currentProject: () => this.project,
        configDir: options.configDir,
        env: options.env ?? process.env,
        trust: storeOracle(this.trust),
      }),
      ...createMcpHandlers({
        currentProject: () => this.project,
        configDir: options.configDir,
        env: options.env ?? process.env,
        trust: storeOracle(this.trust),
        host: options.worker,
        lastRun: (project) => this.chat.mcpFound(project),
      }),
      ...createSkillsHandlers({
        currentProject: () => this.project,
        configDir: options.configDir,
        trust: storeOracle(this.trust),
      }),
      ...createChatHandlers(this.chat, options.configDir),
      ...createRewindHandlers(this.chat, options.configDir),
      ...createModesHandlers(this.chat.modes),
      ...createRulesHandlers({
        currentProject: () => this.project,
        configDir: options.configDir,
        env: options.env ?? process.env,
        trust: storeOracle(this.trust),
        session: this.chat.sessionRules,
      }),
      ...createRuleBuilderHandlers({
        currentProject: () => this.project,
        configDir: options.configDir,
        env: options.env ?? process.env,
        trust: storeOracle(this.trust),
        session: this.chat.sessionRules,
      }),
      ...createSettingsHandlers({
        configDir: options.configDir,
        env: options.env ?? process.env,
        secrets,
        changed: () => this.emit({ type: 'settingsChanged' }),
      }),
      ...createCheckpointSettingsHandlers({
        configDir: options.configDir,
        currentProject: () => this.project,
        changed: () => this.emit({ type: 'settingsChanged' }),
      }),
      ...createUpdatesHandlers(options.updates),
      ...createSandboxHandlers({
        host: options.worker,
        configDir: options.configDir,
        env: options.env ?? process.env,
        project: () => this.project,
        trust: storeOracle(this.trust),
      }),
    };
  }

  currentProject(): string | null {
    return this.project;
  }

  async openProject(dir: string): Promise<string> {
    const real = await checkProjectAsync(dir);
    const changed = real !== this.project;
    this.project = real;
    this.noteOpened(real);
    if (changed) void this.chat.endSession();
    this.emit({ type: 'projectChanged', path: real });
    return real;
  }

  /**
   * Resolves once the writes the core started without waiting are done: the recent projects list and the trust
   * store's last-opened date, both in the config folder. Whoever removes that folder (a test) waits for this first, or
   * a write still under way re-creates it.
   */
  async settled(): Promise<void> {
    while (this.background.size) await Promise.all([...this.background]);
  }

  /**
   * The shell is quitting: the chat session ends as "New session" ends it (a run in progress is cancelled, its
   * transcript is written to the end and closed, its hooks stopped, the audit log flushed), then the background writes
   * finish. Called before the worker stops, which the cancel still needs.
   */
  async close(): Promise<void> {
    await this.chat.endSession().catch(() => undefined);
    await this.settled();
  }

  /** Records that `dir` was opened (recent list, trust's last-opened) in the background: opening never waits for it. */
  private noteOpened(dir: string): void {
    for (const write of [this.recent.add(dir), this.trust.touch(dir)]) {
      this.background.add(write);
      // Neither rejects (both are best effort), so one callback is enough.
      void write.then(() => this.background.delete(write));
    }
  }

  onEvent(listener: (event: ApiEvent) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
      // The last page went away: nobody can answer a waiting approval, so it is denied.
      if (this.listeners.size === 0) this.chat.denyPending('the page was closed before an answer');
    };
  }

  /** Events for something that is not a page (it does not count as someone who can answer an approval). */
  watch(listener: (event: ApiEvent) => void): () => void {
    this.watchers.add(listener);
    return () => this.watchers.delete(listener);
  }

  /** The desktop menu's View items: the page shows that view. */
  showView(view: 'chat' | 'rules' | 'hooks' | 'mcp' | 'skills' | 'settings' | 'about'): void {
    this.emit({ type: 'showView', view });
  }

  private emit(event: ApiEvent): void {
    for (const l of [...this.listeners, ...this.watchers]) l(event);
  }
}

/** The real path of a folder to open as a project, without blocking: NOT_FOUND or BAD_REQUEST with the reason. */
async function checkProjectAsync(dir: string): Promise<string> {
  let real: string;
  try {
    real = await fs.promises.realpath(path.resolve(dir));
  } catch {
    throw new GatehouseError('NOT_FOUND', `project folder not found: ${dir}`);
  }
  if (!(await fs.promises.stat(real)).isDirectory()) throw new GatehouseError('BAD_REQUEST', `not a folder: ${dir}`);
  return real;
}
