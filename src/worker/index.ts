import path from 'node:path';
import v8 from 'node:v8';
import { enableCodeCache } from '../shared/node/code-cache';
import { userCacheDir } from '../shared/node/user-folders';

// The worker's entry (out/main/worker.js), kept small: the worker's code is compiled once per build and kept in the
// user's cache folder (code-cache.ts), as the CLI's is, before any of it loads; then the worker proper starts
// (worker-process.ts, a chunk like the rest). GATEHOUSE_CODE_CACHE=0 turns the cache off.
//
// WebAssembly with Liftoff only, as in every process of Gatehouse (see src/main/core/shell-analysis/parse/parser.ts): the
// worker's only WebAssembly is the HTTP parser (llhttp) of Node's fetch, which the model provider's requests load, and
// V8's optimising tier compiled its functions again in every worker, on background threads, for little gain on a few
// kilobytes of response a second: the worker spends less CPU and memory without it. Set first: the code cache keeps
// V8's flags with the code.
v8.setFlagsFromString('--liftoff-only');
if (process.env.GATEHOUSE_CODE_CACHE !== '0')
  enableCodeCache({
    chunkDir: path.join(__dirname, 'cli-chunks'),
    cacheDir: userCacheDir(process.env),
    variant: 'worker',
  });
void import('./worker-process');
