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

function run(args: string[], env: NodeJS.ProcessEnv, cwd: string): { sample: Sample; stderr: string } {
  const cpuBefore = childrenCpuMs();
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { env, cwd, encoding: 'utf8' });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  const cpuAfter = childrenCpuMs();
  if (r.status !== 0) throw new Error(`cli bench: node ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return {
    sample: { wallMs, cpuMs: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore },
    stderr: r.stderr,
  };
}

function median(samples: Sample[], key: 'wallMs' | 'cpuMs'): number | null {
  const values = samples.map((s) => s[key]);
  return values.every((v): v is number => v !== null) ? percentile(values, 50) : null;
}

function sleepMs(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits (up to `ms`) until `pid` has exited. */
function waitGone(pid: number, ms: number): void {
  for (const end = Date.now() + ms; alive(pid) && Date.now() < end;) sleepMs(20);
}

/** Runs `check` (with the helper's debug line on) until the helper answers it; returns the helper's pid. */
function untilHelperAnswers(check: string[], env: NodeJS.ProcessEnv, cwd: string): number {
  const debugEnv = { ...env, GATEHOUSE_DECISION_HELPER_DEBUG: '1' };
  for (let i = 0; i < 150; i++) {
    const m = /answered by the helper \(pid (\d+)\)/.exec(run(check, debugEnv, cwd).stderr);
    if (m) return Number(m[1]);
    sleepMs(200);
  }
  throw new Error('cli bench: the decision helper never answered');
}

/**
 * The CLI as a process, as a hook calls it: `cli_check_cold_ms` is `gatehouse permissions check` of a shell command
 * against a temp project (whole process: start, load, decide, audit record, exit), median of 7, as a user's hook
 * runs it: answered by the per-user decision helper, which the first call started; `node_bare_ms` is a bare
 * `node -e 0` measured in the same run (interleaved, so both see the same machine load), and `cli_check_cold_ratio`
 * divides the two. So that no one is misled by the helper, also: `cli_check_in_process_ms`, the same check with the
 * helper off (GATEHOUSE_DECISION_HELPER=0: the whole engine loads in the process), and `cli_check_first_ms`, a check
 * when no helper runs (it runs in-process and starts one; measured after the others, each with a runtime folder of
 * its own, waiting for the helper it started to exit before the next). `cli_version_cold_ms` is `gatehouse
 * --version`. On Linux the same in CPU time (user + system of the process, not the helper's; 10 ms resolution):
 * `*_cpu_ms` and `cli_check_cold_cpu_ratio`. One run of each comes first and is not counted (it fills the
 * file-system and compiled-code caches, as any earlier call would have).
 */
export function benchCli(cliPath: string): Record<string, number> {
  const root = fs.realpathSync.native(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-bench-cli-')));
  const project = path.join(root, 'project');
  const home = path.join(root, 'home');
  const runtime = path.join(root, 'run');
  fs.mkdirSync(project);
  fs.mkdirSync(home);
  fs.mkdirSync(runtime, { mode: 0o700 });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    GATEHOUSE_HOME: path.join(root, 'config'),
    XDG_RUNTIME_DIR: runtime,
    GATEHOUSE_DECISION_HELPER_IDLE_MS: '600000',
  };
  const check = [cliPath, 'permissions', 'check', '--project', project, '--call', CALL];
  const runs = {
    node: { args: ['-e', '0'], env },
    check: { args: check, env },
    inProcess: { args: check, env: { ...env, GATEHOUSE_DECISION_HELPER: '0' } },
    version: { args: [cliPath, '--version'], env },
  };
  const samples: Record<keyof typeof runs, Sample[]> = { node: [], check: [], inProcess: [], version: [] };
  const first: Sample[] = [];
  let helperPid: number | null = null;
  try {
    for (const r of Object.values(runs)) run(r.args, r.env, project);
    helperPid = untilHelperAnswers(check, env, project);
    for (let i = 0; i < RUNS; i++)
      for (const [name, r] of Object.entries(runs))
        samples[name as keyof typeof runs].push(run(r.args, r.env, project).sample);
    for (let i = 0; i < RUNS; i++) {
      const fresh = path.join(root, `run-${i}`);
      fs.mkdirSync(fresh, { mode: 0o700 });
      const firstEnv = { ...env, XDG_RUNTIME_DIR: fresh, GATEHOUSE_DECISION_HELPER_DEBUG: '1' };
      const { sample, stderr } = run(check, firstEnv, project);
      first.push(sample);
      // Its helper goes when its socket folder does (it checks every second): the next sample runs without it.
      const started = /started one \(pid (\d+)\)/.exec(stderr);
      fs.rmSync(fresh, { recursive: true, force: true });
      if (started) waitGone(Number(started[1]), 15_000);
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
    if (helperPid !== null) waitGone(helperPid, 5_000);
  }
  const nodeMs = median(samples.node, 'wallMs')!;
  const checkMs = median(samples.check, 'wallMs')!;
  const inProcessMs = median(samples.inProcess, 'wallMs')!;
  const out: Record<string, number> = {
    cli_check_cold_ms: round(checkMs),
    node_bare_ms: round(nodeMs),
    cli_check_cold_ratio: round(checkMs / nodeMs, 2),
    cli_check_in_process_ms: round(inProcessMs),
    cli_check_in_process_ratio: round(inProcessMs / nodeMs, 2),
    cli_check_first_ms: round(median(first, 'wallMs')!),
    cli_version_cold_ms: round(median(samples.version, 'wallMs')!),
  };
  const nodeCpu = median(samples.node, 'cpuMs');
  const checkCpu = median(samples.check, 'cpuMs');
  const inProcessCpu = median(samples.inProcess, 'cpuMs');
  if (nodeCpu !== null && checkCpu !== null && inProcessCpu !== null && nodeCpu > 0) {
    out.cli_check_cold_cpu_ms = checkCpu;
    out.node_bare_cpu_ms = nodeCpu;
    out.cli_check_cold_cpu_ratio = round(checkCpu / nodeCpu, 2);
    out.cli_check_in_process_cpu_ms = inProcessCpu;
  }
  return out;
}
