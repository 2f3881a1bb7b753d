import fs from 'node:fs';
import path from 'node:path';
import type { TrustOracle } from '../../core/permission/trust-oracle';
import { storeOracle } from '../../core/trust/trust-extensions';
import { TrustStore } from '../../core/trust/trust-store';
import { UsageError } from './command';

/** The project folder of `--project` (default: the working directory), as a real path. */
export function projectDir(project: string | undefined, cwd: string): string {
  const dir = path.resolve(cwd, project ?? '.');
  try {
    const real = fs.realpathSync.native(dir);
    if (!fs.statSync(real).isDirectory()) throw new Error('not a folder');
    return real;
  } catch {
    throw new UsageError(`project folder not found: ${dir}`);
  }
}

/** The real TrustStore of the trust issue, as the engine sees it. */
export function trustOracle(configDir: string, env: NodeJS.ProcessEnv): TrustOracle {
  return storeOracle(new TrustStore({ configDir, env }));
}
