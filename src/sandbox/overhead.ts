/** Bench helper: what the sandbox adds to a trivial command, the sandbox already initialised. */
import { spawn } from 'node:child_process';
import * as fsp from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { createCommandSandbox } from './command-sandbox';
import type { WrappedCommand } from './types';

export interface SandboxOverhead {
  /** The workspace profile (project writable). */
  sandboxed_p50_ms: number;
  /** The read-only profile (read-only-profile.ts). */
  read_only_p50_ms: number;
  direct_p50_ms: number;
}

function runOnce(file: string, args: string[], env: Record<string, string>, cwd: string): Promise<number> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    // stdin from /dev/null, not a socket: bash sources ~/.bashrc when its stdin is a socket and SHLVL is unset.
    const child = spawn(file, args, { env, cwd, stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(performance.now() - start) : reject(new Error(`${file} exited with ${String(code)}`)),
    );
  });
}

function p50(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return Math.round((sorted[Math.floor(sorted.length / 2)] ?? NaN) * 100) / 100;
}

/**
 * Runs `true` `runs` times in each profile and directly (`bash -c true`), interleaved so that a busy moment of the
 * machine weighs on all three alike. Throws when there is no sandbox.
 */
export async function measureSandboxOverhead(runs = 30): Promise<SandboxOverhead> {
  const home = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'gatehouse-bench-home-')));
  const project = path.join(home, 'project');
  await fsp.mkdir(project);
  const sandbox = await createCommandSandbox({
    projectRoot: project,
    additionalDirectories: [],
    userConfigDir: path.join(home, '.config', 'gatehouse'),
    home,
    allowedDomains: [],
  });
  try {
    if (sandbox.kind === 'unavailable') throw new Error(`no sandbox to measure: ${sandbox.reason}`);
    const direct: number[] = [];
    const sandboxed: number[] = [];
    const readOnly: number[] = [];
    let env: Record<string, string> = {};
    const timed = async (wrap: () => Promise<WrappedCommand>): Promise<number> => {
      // wrap() is part of the cost: it is paid before every command.
      const wrapStart = performance.now();
      const w = await wrap();
      const wrapMs = performance.now() - wrapStart;
      env = w.env;
      const ms = wrapMs + (await runOnce(w.file, w.args, w.env, w.cwd));
      await w.cleanup?.();
      return ms;
    };
    for (let i = 0; i < runs; i++) {
      sandboxed.push(await timed(() => sandbox.wrap('true')));
      readOnly.push(await timed(() => sandbox.wrapReadOnly('true')));
      direct.push(await runOnce('bash', ['-c', 'true'], env, project));
    }
    return { sandboxed_p50_ms: p50(sandboxed), read_only_p50_ms: p50(readOnly), direct_p50_ms: p50(direct) };
  } finally {
    if (sandbox.kind === 'sandbox') await sandbox.dispose();
    await fsp.rm(home, { recursive: true, force: true });
  }
}
