// Permission modes in the UI: import from here.
export { BypassConfirmDialog } from './BypassConfirmDialog';
export { PermissionModeSelect } from './PermissionModeSelect';
export { PERMISSION_MODE_HINTS, PERMISSION_MODE_LABELS } from './mode-labels';
export { refreshPermissionMode, usePermissionMode } from './mode-store';
export { RunPlanButton } from './RunPlanButton';
