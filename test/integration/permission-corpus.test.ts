import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// The public corpus of permission cases, run through the real CLI (`out/main/cli.js`, built by `npm run build`,
// which `npm test` runs first) by the shared runner, exactly as `node ../shared/tools/permission-corpus.mjs` does.
const repoRoot = path.resolve(__dirname, '..', '..');
const shared = path.resolve(repoRoot, '..', 'shared');
const runner = path.join(shared, 'tools', 'permission-corpus.mjs');
const haveBuild = fs.existsSync(path.join(repoRoot, 'out', 'main', 'cli.js'));

const run = promisify(execFile);

// The public cases, and one public instance of each class of the contract's "Assurance" section. The two files run side
// by side (each runner checks its cases one after the other, a few CLI processes per case).
describe.concurrent.each(['permission-cases.jsonl', 'assurance-cases.jsonl'])(
  'permission corpus %s through the real CLI',
  (file) => {
    const cases = path.join(shared, 'corpus', file);
    const haveCorpus = fs.existsSync(runner) && fs.existsSync(cases);
    it.skipIf(!haveCorpus)(
      `every case matches (skipped when ${shared} is absent)`,
      async () => {
        expect(haveBuild, 'out/main/cli.js is missing: run `npm run build` first').toBe(true);
        const expected = fs
          .readFileSync(cases, 'utf8')
          .split('\n')
          .filter((l) => l.trim() && !l.startsWith('//')).length;
        let output: string;
        try {
          ({ stdout: output } = await run(process.execPath, [runner, cases], {
            cwd: repoRoot,
            encoding: 'utf8',
            timeout: 600_000,
            maxBuffer: 16 * 1024 * 1024,
          }));
        } catch (err) {
          output = String((err as { stdout?: string }).stdout ?? err);
        }
        expect(output).toContain(`${expected}/${expected} cases match`);
      },
      600_000,
    );
  },
);
