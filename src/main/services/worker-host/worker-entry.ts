import fs from 'node:fs';
import path from 'node:path';

/**
 * Where the built worker bundle is: beside the running main bundle (out/main/worker.js), or, when main runs from
 * source (tests), in the project's out/main after `npm run build`.
 */
export function workerEntryPath(fromDir: string = __dirname): string {
  const beside = path.join(fromDir, 'worker.js');
  if (fs.existsSync(beside)) return beside;
  let dir = fromDir;
  for (;;) {
    const candidate = path.join(dir, 'out', 'main', 'worker.js');
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(candidate)) return candidate;
    const up = path.dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  throw new Error(`the worker bundle was not found near ${fromDir}: run \`npm run build\` first`);
}
