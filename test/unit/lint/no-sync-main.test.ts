import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The project's own lint config, on code placed (virtually) in each folder: a synchronous call on the Electron main
// thread's paths fails lint; the CLI's one-shot commands and the documented allow-list may block.

const eslint = new ESLint({ cwd: path.resolve(__dirname, '../../..') });

const BLOCKING = [
  "import fs from 'node:fs';",
  "import { readFileSync } from 'node:fs';",
  "export const a = fs.readFileSync('x', 'utf8') + readFileSync('y', 'utf8');",
  "export const b = fs.realpathSync.native('.');",
  'export const c = (lock: { lockSync(): void }) => lock.lockSync();',
  'export const d = (cell: Int32Array) => Atomics.wait(cell, 0, 0, 10);',
].join('\n');

async function syncErrors(file: string): Promise<number[]> {
  const [result] = await eslint.lintText(BLOCKING + '\n', { filePath: file });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.line);
}

describe('no synchronous calls on the Electron main thread (lint)', () => {
  it.each(['app', 'agent', 'session', 'settings', 'trust', 'web', 'worker-host', 'electron', 'log', 'sandbox', 'fs'])(
    'src/main/%s: every blocking call is an error',
    async (folder) => {
      expect(await syncErrors(`src/main/${folder}/new-module.ts`)).toEqual([2, 3, 4, 5, 6]);
    },
    30_000,
  );

  it.each(['src/worker/tools', 'src/shared/node', 'src/sandbox'])(
    '%s (the worker, and the sandbox library main starts project hooks with): every blocking call is an error',
    async (folder) => {
      expect(await syncErrors(`${folder}/new-module.ts`)).toEqual([2, 3, 4, 5]);
    },
    30_000,
  );

  it('the CLI, start-up code and the compiled-code cache (the module loader) may block; the trust store may not', async () => {
    expect(await syncErrors('src/main/shells/cli/new-command.ts')).toEqual([]);
    expect(await syncErrors('src/main/services/app/startup-project.ts')).toEqual([]);
    expect(await syncErrors('src/shared/node/code-cache.ts')).toEqual([]);
    expect(await syncErrors('src/main/core/trust/trust-file.ts')).toEqual([2, 3, 4, 5, 6]);
    expect(await syncErrors('src/worker/index.ts')).toEqual([2, 3, 4, 5]);
  }, 30_000);
});
