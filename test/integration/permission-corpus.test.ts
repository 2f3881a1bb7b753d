import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The public corpus of permission cases, run through the real CLI (`out/main/cli.js`, built by `npm run build`,
// which `npm test` runs first) by the shared runner, exactly as `node ../shared/tools/permission-corpus.mjs` does.
// Every case runs as a user's hook calls run by default: the runner's processes are thin clients of one decision
// helper that answers them all, settings and trust changing from case to case (the first client answers in-process
// and starts the helper). The assurance cases also run with every check in its own process (the helper switched
// off), the path taken where no helper can be used. The two paths share the engine and read the same files; the
// helper's own tests (decision-helper*.test.ts) check that it answers as a fresh process would. Running all the
// public cases a second time that way cost ~70 s of the suite for no path the assurance cases do not take.
const repoRoot = path.resolve(__dirname, '..', '..');
const shared = path.resolve(repoRoot, '..', 'shared');
const runner = path.join(shared, 'tools', 'permission-corpus.mjs');
const haveBuild = fs.existsSync(path.join(repoRoot, 'out', 'main', 'cli.js'));

const IN_PROCESS = { mode: 'in-process', env: { GATEHOUSE_DECISION_HELPER: '0' } };
const THROUGH_HELPER = { mode: 'through the decision helper', env: { GATEHOUSE_DECISION_HELPER: '1' } };
const corpora = [
  { file: 'permission-cases.jsonl', modes: [THROUGH_HELPER] },
  { file: 'assurance-cases.jsonl', modes: [THROUGH_HELPER, IN_PROCESS] },
  { file: 'assurance-cases-v3.jsonl', modes: [THROUGH_HELPER] },
];

// The public cases, one public instance of each class of the contract's "Assurance" section, and one or two of each
// class of the third red-team round (the closed sets at the end of "Assurance").
describe.each(corpora)('permission corpus $file through the real CLI', ({ file, modes }) => {
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
});
