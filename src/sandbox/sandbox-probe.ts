/** Shared by the bubblewrap and Seatbelt set-ups: real directories, and the probe that proves a sandbox works. */
import { spawn } from 'node:child_process';
import * as fsp from 'node:fs/promises';
import type { CommandSandboxConfig, SandboxUnavailable, WrappedCommand } from './types';

const PROBE_TIMEOUT_MS = 10_000;
export const PROBE_COMMAND = 'echo gatehouse-sandbox-ok';

export function unavailable(reason: string): SandboxUnavailable {
  return { kind: 'unavailable', reason };
}

/** The real path of an existing directory, or null. */
async function realDir(p: string): Promise<string | null> {
  try {
    const real = await fsp.realpath(p);
    return (await fsp.stat(real)).isDirectory() ? real : null;
  } catch {
    return null;
  }
}

/** The project root and the additional directories that exist, as real paths (project first, no duplicates). */
export async function writableRootsOf(
  config: CommandSandboxConfig,
): Promise<{ projectRoot: string; writableRoots: string[] } | null> {
  const projectRoot = await realDir(config.projectRoot);
  if (projectRoot === null) return null;
  const extra = (await Promise.all(config.additionalDirectories.map(realDir))).filter((d): d is string => d !== null);
  return { projectRoot, writableRoots: [...new Set([projectRoot, ...extra])] };
}

/** A probe that could not even be wrapped (a root that cannot be guarded, a path a profile cannot hold). */
export function probeError(err: unknown): { ok: false; detail: string } {
  return { ok: false, detail: err instanceof Error ? err.message : String(err) };
}

/** Runs `PROBE_COMMAND` wrapped: ok only when it printed the marker and exited 0. */
export function probe(w: WrappedCommand): Promise<{ ok: boolean; detail: string }> {
  return new Promise((resolve) => {
    // stdin from /dev/null, not a socket: bash sources ~/.bashrc when its stdin is a socket and SHLVL is unset.
    const child = spawn(w.file, w.args, {
      env: w.env,
      cwd: w.cwd,
      timeout: PROBE_TIMEOUT_MS,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const done = (result: { ok: boolean; detail: string }): void => {
      void Promise.resolve(w.cleanup?.())
        .catch(() => undefined)
        .then(() => resolve(result));
    };
    child.on('error', (err) => done({ ok: false, detail: err.message }));
    child.on('close', (code, signal) => {
      if (code === 0 && stdout.trim() === 'gatehouse-sandbox-ok') done({ ok: true, detail: '' });
      else
        done({
          ok: false,
          detail: (stderr.trim() || `unexpected probe result (exit ${String(code ?? signal)})`).split('\n')[0] ?? '',
        });
    });
  });
}
