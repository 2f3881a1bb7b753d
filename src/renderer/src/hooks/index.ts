// The Hooks page and the tool card's hook runs: import from here.
export { HooksView } from './HooksView';
export { HookRuns } from './HookRuns';
import './hooks.css';
