import { spawnSync } from 'node:child_process';
import { z } from 'zod';
import { percentile, round } from './stats';

/**
 * What this machine charges for the kernel work that every process of Gatehouse (and of its test suite) pays: a
 * first touch of a memory page (a page fault), and the copy-on-write faults a process takes after starting another
 * one. Node 20's libuv starts a child with fork(), not vfork(): until the parent has written each of its pages once
 * more, every write to one is a fault, so a spawn costs the spawner a fault per page it then writes. These numbers
 * differ tenfold between machines (a virtual machine that traps each fault to its host pays the most) and explain
 * most of the difference in `npm test`'s time between two machines with the same number of cores. Linux only (the
 * fault counts come from /proc); elsewhere this bench prints nothing.
 *
 * - `machine_page_fault_us`: CPU time per fault while a fresh process first writes 128 MiB (one byte per 4 KiB
 *   page), median of 3 processes.
 * - `machine_spawn_rewrite_ms`: the CPU time a process holding 64 MiB of written memory pays for starting `true`
 *   and then writing that memory again, less the same writes without the spawn; median of 5 spawns in each of
 *   3 processes. The Electron main process spawns git for each checkpoint; the worker, each command.
 */

const PAGE = 4096;
const ResultSchema = z.object({ cpuUs: z.number(), faults: z.number(), pages: z.number() });
const SpawnSchema = z.object({ spawnRewriteUs: z.array(z.number()), rewriteUs: z.array(z.number()) });

// Both probes run in a child of their own: a fresh heap and address space, and no bench state in the way.
const PRELUDE = `
const fs = require('node:fs');
const faults = () => Number(fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ')[7]);
const cpuUs = () => { const u = process.cpuUsage(); return u.user + u.system; };
const touch = (b) => { for (let i = 0; i < b.length; i += ${PAGE}) b[i] = (b[i] + 1) & 255; };
`;

const faultProbe = (mib: number): string => `${PRELUDE}
const buf = Buffer.allocUnsafeSlow(${mib} * 1024 * 1024);
const f0 = faults(), c0 = cpuUs();
touch(buf);
console.log(JSON.stringify({ cpuUs: cpuUs() - c0, faults: faults() - f0, pages: buf.length / ${PAGE} }));
`;

const spawnProbe = (mib: number): string => `${PRELUDE}
const { spawn } = require('node:child_process');
const buf = Buffer.allocUnsafeSlow(${mib} * 1024 * 1024);
touch(buf);
const timed = async (fn) => { const c0 = cpuUs(); await fn(); return cpuUs() - c0; };
(async () => {
  const rewriteUs = [], spawnRewriteUs = [];
  for (let i = 0; i < 5; i++) {
    rewriteUs.push(await timed(async () => touch(buf)));
    spawnRewriteUs.push(await timed(async () => {
      await new Promise((resolve, reject) => spawn('true', { stdio: 'ignore' }).on('exit', resolve).on('error', reject));
      touch(buf);
    }));
  }
  console.log(JSON.stringify({ rewriteUs, spawnRewriteUs }));
})();
`;

function probe<T>(script: string, schema: z.ZodType<T>): T {
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', env: { PATH: process.env.PATH } });
  if (r.status !== 0) throw new Error(`machine bench: the probe exited ${r.status}: ${r.stderr.trim()}`);
  const last = r.stdout.trim().split('\n').pop() ?? '';
  let value: unknown;
  try {
    value = JSON.parse(last);
  } catch {
    value = undefined;
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(`machine bench: the probe printed ${JSON.stringify(last)}, not its result`);
  return parsed.data;
}

export interface MachineBenchOptions {
  /** Memory the fault probe writes (MiB). */
  faultMiB: number;
  /** Memory the spawning process holds and writes again (MiB). */
  spawnMiB: number;
  /** Processes of each probe. */
  processes: number;
}

const DEFAULTS: MachineBenchOptions = { faultMiB: 128, spawnMiB: 64, processes: 3 };

export function benchMachine(options: MachineBenchOptions = DEFAULTS): Record<string, number> {
  if (process.platform !== 'linux') return {};
  const perFault: number[] = [];
  const extra: number[] = [];
  for (let i = 0; i < options.processes; i++) {
    const r = probe(faultProbe(options.faultMiB), ResultSchema);
    if (r.faults < r.pages / 2)
      throw new Error(`machine bench: ${r.faults} faults for ${r.pages} pages: the memory was not fresh`);
    perFault.push(r.cpuUs / r.faults);
    const s = probe(spawnProbe(options.spawnMiB), SpawnSchema);
    s.spawnRewriteUs.forEach((us, k) => extra.push(us - (s.rewriteUs[k] ?? 0)));
  }
  return {
    machine_page_fault_us: round(percentile(perFault, 50), 2),
    machine_spawn_rewrite_ms: round(percentile(extra, 50) / 1000),
  };
}
