// The test's view of the Electron runtime: the bench's finder (bench/desktop), resolved from here.
import { findElectronRuntime as find, playwrightElectronLoader as loader } from '../../bench/desktop/electron-runtime';
export type { ElectronRuntime } from '../../bench/desktop/electron-runtime';

export const findElectronRuntime = (env: NodeJS.ProcessEnv = process.env) => find(env, __filename);
export const playwrightElectronLoader = () => loader(__filename);
