import fs from 'node:fs';
import path from 'node:path';
import { GatehouseError } from '../../../shared/errors';

/**
 * The folder named on the command line, checked while the app starts (before any window or request exists), so a
 * wrong path is reported before anything opens: the one synchronous look at the disk the app core makes. Folders
 * opened later are checked without blocking (AppCore.openProject).
 */
export function startupProject(dir: string): string {
  let real: string;
  try {
    real = fs.realpathSync.native(path.resolve(dir));
  } catch {
    throw new GatehouseError('NOT_FOUND', `project folder not found: ${dir}`);
  }
  if (!fs.statSync(real).isDirectory()) throw new GatehouseError('BAD_REQUEST', `not a folder: ${dir}`);
  return real;
}
