import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The public corpus of permission cases, run through the real CLI (`out/main/cli.js`, built by `npm run build`,
// which `npm test` runs first) by the shared runner, exactly as `node ../shared/tools/permission-corpus.mjs` does:
// once with every check in its own process, and once through the decision helper (the runner's processes are then
// thin clients of one helper that answers them all, settings and trust changing from case to case).
const repoRoot = path.resolve(__dirname, '..', '..');
const shared = path.resolve(repoRoot, '..', 'shared');
const runner = path.join(shared, 'tools', 'permission-corpus.mjs');
const haveBuild = fs.existsSync(path.join(repoRoot, 'out', 'main', 'cli.js'));

const modes = [
  { mode: 'in-process', env: { GATEHOUSE_DECISION_HELPER: '0' } },
  { mode: 'through the decision helper', env: { GATEHOUSE_DECISION_HELPER: '1' } },
];

// The public cases, and one public instance of each class of the contract's "Assurance" section.
describe.each(['permission-cases.jsonl', 'assurance-cases.jsonl'])(
  'permission corpus %s through the real CLI',
  (file) => {
    const cases = path.join(shared, 'corpus', file);
    const haveCorpus = fs.existsSync(runner) && fs.existsSync(cases);
    it.skipIf(!haveCorpus).each(modes)(
      `every case matches, $mode (skipped when ${shared} is absent)`,
      ({ env }) => {
        expect(haveBuild, 'out/main/cli.js is missing: run `npm run build` first').toBe(true);
        const expected = fs
          .readFileSync(cases, 'utf8')
          .split('\n')
          .filter((l) => l.trim() && !l.startsWith('//')).length;
        // A runtime folder of its own: the helper that answers is the one this run starts, and it exits (its socket
        // folder removed) at the end.
        const runtime = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-corpus-run-'));
        let output: string;
        try {
          output = execFileSync(process.execPath, [runner, cases], {
            cwd: repoRoot,
            encoding: 'utf8',
            timeout: 600_000,
            stdio: ['ignore', 'pipe', 'pipe'],
            env: { ...process.env, XDG_RUNTIME_DIR: runtime, ...env },
          });
        } catch (err) {
          output = String((err as { stdout?: string }).stdout ?? err);
        } finally {
          const sockets = fs.readdirSync(runtime, { recursive: true }).filter((f) => String(f).endsWith('.sock'));
          fs.rmSync(runtime, { recursive: true, force: true });
          if (env.GATEHOUSE_DECISION_HELPER === '1') expect(sockets, 'no decision helper was started').toHaveLength(1);
          else expect(sockets).toEqual([]);
        }
        expect(output).toContain(`${expected}/${expected} cases match`);
      },
      600_000,
    );
  },
);
