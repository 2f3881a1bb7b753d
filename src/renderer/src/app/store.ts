import { create } from 'zustand';
import type { ApiEvent, AppInfo, GatehouseApi, WorkerStatus } from '../../../shared/api';
import type { WorkerInfo } from '../../../shared/worker-protocol';
import { errorMessage } from '../api/errors';

/** What the shell shows: filled from main's answers and kept current by main's events. */
export interface ShellState {
  info: AppInfo | null;
  worker: WorkerStatus | null;
  /** The identity the live worker itself reported to the last pingWorker. */
  live: WorkerInfo | null;
  liveError: string | null;
  pinging: boolean;
  recent: string[];
  loadError: string | null;
  projectError: string | null;
}

export const useShell = create<ShellState>(() => ({
  info: null,
  worker: null,
  live: null,
  liveError: null,
  pinging: false,
  recent: [],
  loadError: null,
  projectError: null,
}));

export async function loadShell(api: GatehouseApi): Promise<void> {
  try {
    const [info, recent] = await Promise.all([api.getAppInfo({}), api.listRecentProjects({})]);
    useShell.setState({ info, worker: info.worker, recent: recent.paths, loadError: null });
  } catch (err) {
    useShell.setState({ loadError: errorMessage(err) });
  }
}

export async function pingWorker(api: GatehouseApi): Promise<void> {
  useShell.setState({ pinging: true });
  try {
    const live = await api.pingWorker({});
    useShell.setState({ live, liveError: null, pinging: false });
  } catch (err) {
    useShell.setState({ live: null, liveError: errorMessage(err), pinging: false });
  }
}

export async function openProject(api: GatehouseApi, path: string): Promise<boolean> {
  try {
    const opened = await api.openProject({ path });
    const recent = await api.listRecentProjects({});
    useShell.setState((s) => ({
      info: s.info && { ...s.info, project: opened.path },
      recent: recent.paths,
      projectError: null,
    }));
    return true;
  } catch (err) {
    useShell.setState({ projectError: errorMessage(err) });
    return false;
  }
}

/** Desktop only: the OS folder picker, then the folder it returned. */
export async function pickAndOpenProject(api: GatehouseApi): Promise<void> {
  try {
    const picked = await api.openFolderDialog({});
    if (picked.path) await openProject(api, picked.path);
  } catch (err) {
    useShell.setState({ projectError: errorMessage(err) });
  }
}

export function applyEvent(event: ApiEvent): void {
  switch (event.type) {
    case 'workerStatus':
      useShell.setState({ worker: event.status });
      return;
    case 'projectChanged':
      useShell.setState((s) => ({ info: s.info && { ...s.info, project: event.path } }));
      return;
  }
}

export async function refreshRecent(api: GatehouseApi): Promise<void> {
  try {
    const recent = await api.listRecentProjects({});
    useShell.setState({ recent: recent.paths });
  } catch {
    // The list is a convenience: keep the last one shown.
  }
}
