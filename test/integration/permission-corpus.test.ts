import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The public corpus of permission cases, run through the real CLI (`out/main/cli.js`, built by `npm run build`,
// which `npm test` runs first) by the shared runner, exactly as `node ../shared/tools/permission-corpus.mjs` does.
const repoRoot = path.resolve(__dirname, '..', '..');
const shared = path.resolve(repoRoot, '..', 'shared');
const runner = path.join(shared, 'tools', 'permission-corpus.mjs');
const haveBuild = fs.existsSync(path.join(repoRoot, 'out', 'main', 'cli.js'));

// The public cases, and one public instance of each class of the contract's "Assurance" section.
describe.each(['permission-cases.jsonl', 'assurance-cases.jsonl'])(
  'permission corpus %s through the real CLI',
  (file) => {
    const cases = path.join(shared, 'corpus', file);
    const haveCorpus = fs.existsSync(runner) && fs.existsSync(cases);
    it.skipIf(!haveCorpus)(
      `every case matches (skipped when ${shared} is absent)`,
      () => {
        expect(haveBuild, 'out/main/cli.js is missing: run `npm run build` first').toBe(true);
        const expected = fs
          .readFileSync(cases, 'utf8')
          .split('\n')
          .filter((l) => l.trim() && !l.startsWith('//')).length;
        let output: string;
        try {
          output = execFileSync(process.execPath, [runner, cases], {
            cwd: repoRoot,
            encoding: 'utf8',
            timeout: 600_000,
            stdio: ['ignore', 'pipe', 'pipe'],
          });
        } catch (err) {
          output = String((err as { stdout?: string }).stdout ?? err);
        }
        expect(output).toContain(`${expected}/${expected} cases match`);
      },
      600_000,
    );
  },
);
