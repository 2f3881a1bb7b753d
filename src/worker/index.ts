import path from 'node:path';
import { enableCodeCache } from '../shared/node/code-cache';
import { userCacheDir } from '../shared/node/user-cache-dir';

// The worker's entry (out/main/worker.js), kept small: the worker's code is compiled once per build and kept in the
// user's cache folder (code-cache.ts), as the CLI's is, before any of it loads; then the worker proper starts
// (worker-process.ts, a chunk like the rest). GATEHOUSE_CODE_CACHE=0 turns the cache off.
if (process.env.GATEHOUSE_CODE_CACHE !== '0')
  enableCodeCache({
    chunkDir: path.join(__dirname, 'cli-chunks'),
    cacheDir: userCacheDir(process.env),
    variant: 'worker',
  });
void import('./worker-process');
