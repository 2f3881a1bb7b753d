export {
  loadSandboxSettings,
  readSandboxBlock,
  type SandboxSettings,
  type SandboxSettingsSources,
} from './sandbox-settings';
export { bwrapOverride, sandboxRunConfig, type SandboxRunConfigSources } from './run-config';
export { sandboxMissing, unavailableReason, SANDBOXED_TOOL } from './sandbox-gate';
export { writableDirectories } from './writable-directories';
export { readDenyMask, sandboxReadDeny, TOO_MANY_FILES, type ReadDenyMask } from './read-deny-mask';
