import type { PermissionMode } from '../../../shared/permission';

/** How each permission mode is named in the UI, and what it does when no rule decides. */
export const PERMISSION_MODE_LABELS: Record<PermissionMode, string> = {
  strict: 'Strict',
  default: 'Default',
  acceptEdits: 'Accept edits',
  auto: 'Auto',
  bypassPermissions: 'Bypass',
};

export const PERMISSION_MODE_HINTS: Record<PermissionMode, string> = {
  strict: 'everything asks',
  default: 'reads run; writes and commands ask',
  acceptEdits: 'reads and writes run; commands ask',
  auto: 'reads and writes run; a classifier model answers what would ask, else you are asked',
  bypassPermissions: 'everything runs without asking',
};
