/** Shared by the bubblewrap and Seatbelt set-ups: real directories, and the probe that proves a sandbox works. */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import type { CommandSandboxConfig, SandboxUnavailable, WrappedCommand } from './types';

const PROBE_TIMEOUT_MS = 10_000;
export const PROBE_COMMAND = 'echo gatehouse-sandbox-ok';

export function unavailable(reason: string): SandboxUnavailable {
  return { kind: 'unavailable', reason };
}

/** The real path of an existing directory, or null. */
export function realDir(p: string): string | null {
  try {
    const real = fs.realpathSync(p);
    return fs.statSync(real).isDirectory() ? real : null;
  } catch {
    return null;
  }
}

/** The project root and the additional directories that exist, as real paths (project first, no duplicates). */
export function writableRootsOf(config: CommandSandboxConfig): { projectRoot: string; writableRoots: string[] } | null {
  const projectRoot = realDir(config.projectRoot);
  if (projectRoot === null) return null;
  const extra = config.additionalDirectories.map(realDir).filter((d): d is string => d !== null);
  return { projectRoot, writableRoots: [...new Set([projectRoot, ...extra])] };
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
    child.on('error', (err) => {
      w.cleanup?.();
      resolve({ ok: false, detail: err.message });
    });
    child.on('close', (code, signal) => {
      w.cleanup?.();
      if (code === 0 && stdout.trim() === 'gatehouse-sandbox-ok') resolve({ ok: true, detail: '' });
      else
        resolve({
          ok: false,
          detail: (stderr.trim() || `unexpected probe result (exit ${String(code ?? signal)})`).split('\n')[0] ?? '',
        });
    });
  });
}
