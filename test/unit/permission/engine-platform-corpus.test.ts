import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentMode, PermissionMode } from '../../../src/shared/permission';
import { HOST_PATHS, pathSystem, type PathSystem } from '../../../src/shared/node/platform-path';
import {
  atLeastAsStrict,
  CORPUS_DIR,
  corpusAvailable,
  foldedSpellings,
  isPathCase,
  loadCorpus,
  respell,
  windowsSpellings,
  type CorpusCase,
  type Spelling,
} from './corpus-variants';
import { makePlatformFixture, type PlatformFixture, type SettingsFile } from './platform-fixture';

/**
 * Every self-protection, sensitive-file and confinement case of the public corpus, judged by an engine that sees the
 * corpus's tree under Windows paths (a case-insensitive NTFS volume, and a case-sensitive folder) and on a POSIX
 * volume that folds case (macOS's default, found by the engine's own probe of the volume), with the case's paths
 * respelled every way that platform writes the same files. The files are real (a temporary folder shown at `C:\`).
 */
const platforms: {
  name: string;
  sys: PathSystem;
  root?: string;
  foldCase: boolean;
  inject: boolean;
  spellings: Spelling[];
}[] = [
  {
    name: 'Windows paths on a volume that folds case',
    sys: pathSystem('win32', true),
    root: 'C:\\',
    foldCase: true,
    inject: true,
    spellings: windowsSpellings(true),
  },
  {
    name: 'Windows paths in a case-sensitive folder',
    sys: pathSystem('win32', false),
    root: 'C:\\',
    foldCase: false,
    inject: true,
    spellings: windowsSpellings(false),
  },
  {
    name: 'POSIX paths on a volume that folds case (found by the probe)',
    sys: HOST_PATHS.withFoldCase(true),
    foldCase: true,
    inject: false,
    spellings: foldedSpellings(),
  },
];

const cases = corpusAvailable() ? loadCorpus().filter(isPathCase) : [];

/** One case in one spelling, on the platform's tree (shared: the engine only reads it; settings are written anew). */
async function judge(
  fx: PlatformFixture,
  c: CorpusCase,
  spelling: Spelling | null,
): Promise<{ decision: string; why: string }> {
  fx.clearSettings();
  const vars = { project: fx.vars.project, outside: fx.vars.outside, root: fx.vars.root, userhome: fx.vars.userhome };
  const respelled = spelling ? respell(c, spelling, vars) : respell(c, NO_RESPELLING, vars);
  for (const [file, perms] of Object.entries(respelled.settings ?? {})) fx.settings(file as SettingsFile, perms ?? {});
  const trusted = c.trust === undefined || c.trust === 'trusted' || c.trust === 'parent';
  const engine = await fx.engine({
    mode: (c.mode ?? 'default') as PermissionMode,
    agentMode: (c.agentMode ?? 'chat') as AgentMode,
    trusted,
  });
  const d = await engine.decide(respelled.call);
  return {
    decision: d.decision,
    why: `${JSON.stringify(respelled.call.input)} ${JSON.stringify(respelled.settings)} -> ${d.decision}/${d.source}: ${d.reason}`,
  };
}

/** The corpus's own spelling on the simulated platform: `{project}` as the platform's absolute path, nothing else. */
const NO_RESPELLING: Spelling = {
  name: 'as written',
  vars: (v) => v,
  shellVars: (v) => Object.fromEntries(Object.entries(v).map(([k, p]) => [k, p.replace(/\\/g, '/')])),
  relative: (p) => p,
  shellWord: (p) => p,
  pattern: (p) => p,
};

describe.each(platforms)('$name', (platform) => {
  let fx: PlatformFixture;
  beforeAll(() => {
    fx = makePlatformFixture(platform);
  });
  afterAll(() => fx.cleanup());

  it.skipIf(cases.length === 0)(
    `the corpus's path cases keep their decisions in every spelling (skipped when ${CORPUS_DIR} is absent)`,
    async () => {
      expect(cases.length).toBeGreaterThan(40);
      const failures: string[] = [];
      for (const c of cases) {
        for (const spelling of [null, ...platform.spellings]) {
          const got = await judge(fx, c, spelling);
          // the corpus's own spelling decides exactly as expected; a respelling as expected or more strictly
          const decided = spelling === null ? got.decision === c.expect : atLeastAsStrict(got.decision, c.expect);
          if (!decided)
            failures.push(
              `${c.id} [${spelling?.name ?? 'as written'}] expected ${c.expect}, got ${got.decision}: ${got.why}`,
            );
        }
      }
      expect(failures).toEqual([]);
    },
    300_000,
  );
});
