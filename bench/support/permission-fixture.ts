import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { flushLastGoodWrites } from '../../src/main/core/settings/last-good-cache';
import type { PermissionEngine } from '../../src/main/core/permission/engine';
import { createPermissionEngine } from '../../src/main/core/permission/create-engine';
import { fixedTrust } from '../../src/main/core/permission/trust-oracle';

export interface BenchEngine {
  engine: PermissionEngine;
  /** A mix of file and command calls (some allowed by rules, some denied, some falling to the mode). */
  calls: unknown[];
  /**
   * Removes the temp folder once the settings' last-good entries are written: the engine records them in the
   * background, and one still under way would re-create `config/settings-last-good` after the removal.
   */
  cleanup(): Promise<void>;
}

function ruleFor(i: number): string {
  switch (i % 4) {
    case 0:
      return `Bash(tool${i} run:*)`;
    case 1:
      return `Edit(src/area${i}/**)`;
    case 2:
      return `Read(./data${i}/**)`;
    default:
      return `Bash(npm run task${i} *)`;
  }
}

/**
 * Builds an engine over a temp project with `ruleCount` rules spread across the policy, user, project and local
 * settings files and the CLI flags, for `npm run bench` (permission_decision_p99_us). Await `cleanup()` after.
 */
export async function createBenchEngine(ruleCount: number): Promise<BenchEngine> {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-bench-')));
  const project = path.join(root, 'project');
  const configDir = path.join(root, 'config');
  fs.mkdirSync(path.join(project, 'src', 'lib'), { recursive: true });
  fs.mkdirSync(path.join(project, '.gatehouse'), { recursive: true });
  fs.mkdirSync(configDir, { recursive: true });
  fs.writeFileSync(path.join(project, 'src', 'lib', 'index.ts'), 'export {};\n');
  const files = [
    path.join(root, 'policy.yaml'),
    path.join(configDir, 'settings.yaml'),
    path.join(project, '.gatehouse', 'settings.yaml'),
    path.join(project, '.gatehouse', 'settings.local.yaml'),
  ];
  const perFile: string[][] = files.map(() => []);
  const cli: string[] = [];
  for (let i = 0; i < ruleCount; i++) {
    const bucket = i % 5;
    if (bucket === 4) cli.push(ruleFor(i));
    else perFile[bucket]!.push(ruleFor(i));
  }
  files.forEach((file, i) => {
    const rules = perFile[i]!;
    const allow = rules.filter((_, j) => j % 3 !== 0);
    const deny = rules.filter((_, j) => j % 3 === 0);
    fs.writeFileSync(file, JSON.stringify({ permissions: { allow, deny } }, null, 2));
  });
  const env = { ...process.env, HOME: path.join(root, 'home'), GATEHOUSE_HOME: configDir, GATEHOUSE_POLICY: files[0]! };
  const engine = await createPermissionEngine({
    projectRoot: project,
    configDir,
    env,
    trust: fixedTrust(true),
    cliRules: cli.map((rule) => ({ behavior: 'allow' as const, rule })),
    audit: null,
  });
  const calls: unknown[] = [
    { tool: 'read_file', input: { path: 'src/lib/index.ts' } },
    { tool: 'write_file', input: { path: 'src/area1/x.ts', content: 'x' } },
    { tool: 'edit_file', input: { path: 'src/lib/index.ts', old_string: 'a', new_string: 'b' } },
    { tool: 'run_command', input: { command: 'npm run task3 -- --watch' } },
    { tool: 'run_command', input: { command: 'git status && ls -la src | wc -l' } },
    { tool: 'run_command', input: { command: 'tool0 run build > out.txt' } },
    { tool: 'search_code', input: { pattern: 'TODO', path: 'src' } },
    { tool: 'run_command', input: { command: 'cat data2/file.txt' } },
  ];
  const cleanup = async (): Promise<void> => {
    await flushLastGoodWrites();
    await fsp.rm(root, { recursive: true, force: true });
  };
  return { engine, calls, cleanup };
}

/** Measures the cost of stat'ing the settings files on one check (the "watch or stat" question), in microseconds. */
export async function measureStatPerCheckUs(engine: PermissionEngine, iterations = 2000): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) await engine.state.snapshot();
  return Number(process.hrtime.bigint() - start) / 1000 / iterations;
}
