import { create } from 'zustand';
import type { GatehouseApi } from '../../../shared/api';
import type { PermissionModeState } from '../../../shared/modes-contract';

/** The chat session's permission mode as main last reported it (main decides; this only shows it). */
export const usePermissionMode = create<{ state: PermissionModeState | null; error: string | null }>(() => ({
  state: null,
  error: null,
}));

/** Re-reads the mode in force (after a project, trust or settings change). */
export async function refreshPermissionMode(api: GatehouseApi): Promise<void> {
  try {
    usePermissionMode.setState({ state: await api.getPermissionMode({}), error: null });
  } catch {
    usePermissionMode.setState({ state: null });
  }
}
