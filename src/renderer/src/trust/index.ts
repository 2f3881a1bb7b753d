// Project trust in the renderer. Mount <ProjectTrustChip /> in the header and <TrustFeature /> once in the app.
export {
  ProjectTrustChip,
  ProjectTrustPrompt,
  ProjectTrustedFolders,
  TrustFeature,
  useTrustSync,
} from './TrustFeature';
export { TrustChip, trustLabel } from './TrustChip';
export { TrustDialog } from './TrustDialog';
export type { TrustDialogProps } from './TrustDialog';
export { TrustedFoldersPage, filterEntries } from './TrustedFoldersPage';
export { TrustPreviewList } from './TrustPreviewList';
export { useTrust } from './trust-state';
import './trust.css';
