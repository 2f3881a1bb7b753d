import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { percentile, round } from './stats';

const RUNS = 7;
const CALL = JSON.stringify({ tool: 'run_command', input: { command: 'ls -la && git status' } });

/** The user and system CPU time of this process's waited-for children, in ms (Linux `/proc`), or null elsewhere. */
function childrenCpuMs(): number | null {
  try {
    // Fields after the command name: state is field 3; cutime and cstime are fields 16 and 17 (clock ticks, 100 Hz).
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return null;
  }
}

interface Sample {
  wallMs: number;
  cpuMs: number | null;
}

function timed(args: string[], env: NodeJS.ProcessEnv, cwd: string): Sample {
  const cpuBefore = childrenCpuMs();
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { env, cwd, encoding: 'utf8' });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  const cpuAfter = childrenCpuMs();
  if (r.status !== 0) throw new Error(`cli bench: node ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { wallMs, cpuMs: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore };
}

function median(samples: Sample[], key: 'wallMs' | 'cpuMs'): number | null {
  const values = samples.map((s) => s[key]);
  return values.every((v): v is number => v !== null) ? percentile(values, 50) : null;
}

/**
 * The CLI as a process, as a hook calls it: `cli_check_cold_ms` is `gatehouse permissions check` of a shell command
 * against a temp project (whole process: start, load, decide, audit record, exit), median of 7; `node_bare_ms` is a
 * bare `node -e 0` measured in the same run (interleaved, so both see the same machine load), and
 * `cli_check_cold_ratio` divides the two. `cli_version_cold_ms` is `gatehouse --version`. On Linux the same in CPU
 * time (user + system, 10 ms resolution): `*_cpu_ms` and `cli_check_cold_cpu_ratio`. One run of each comes first
 * and is not counted (it fills the file-system and compiled-code caches, as any earlier call would have).
 */
export function benchCli(cliPath: string): Record<string, number> {
  const root = fs.realpathSync.native(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-bench-cli-')));
  const project = path.join(root, 'project');
  const home = path.join(root, 'home');
  fs.mkdirSync(project);
  fs.mkdirSync(home);
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, GATEHOUSE_HOME: path.join(root, 'config') };
  const runs = {
    node: ['-e', '0'],
    check: [cliPath, 'permissions', 'check', '--project', project, '--call', CALL],
    version: [cliPath, '--version'],
  };
  const samples: Record<keyof typeof runs, Sample[]> = { node: [], check: [], version: [] };
  try {
    for (const args of Object.values(runs)) timed(args, env, project);
    for (let i = 0; i < RUNS; i++)
      for (const [name, args] of Object.entries(runs))
        samples[name as keyof typeof runs].push(timed(args, env, project));
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
  const nodeMs = median(samples.node, 'wallMs')!;
  const checkMs = median(samples.check, 'wallMs')!;
  const out: Record<string, number> = {
    cli_check_cold_ms: round(checkMs),
    node_bare_ms: round(nodeMs),
    cli_check_cold_ratio: round(checkMs / nodeMs, 2),
    cli_version_cold_ms: round(median(samples.version, 'wallMs')!),
  };
  const nodeCpu = median(samples.node, 'cpuMs');
  const checkCpu = median(samples.check, 'cpuMs');
  if (nodeCpu !== null && checkCpu !== null && nodeCpu > 0) {
    out.cli_check_cold_cpu_ms = checkCpu;
    out.node_bare_cpu_ms = nodeCpu;
    out.cli_check_cold_cpu_ratio = round(checkCpu / nodeCpu, 2);
  }
  return out;
}
