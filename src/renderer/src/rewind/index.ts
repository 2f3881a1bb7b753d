export { RewindButton } from './RewindButton';
export { RewindDialog } from './RewindDialog';
