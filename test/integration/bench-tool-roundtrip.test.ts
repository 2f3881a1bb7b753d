import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { benchToolRoundtrip } from '../../bench/tool-bench';
import { createNodeWorkerHost } from '../../src/main/services/worker-host/node-worker-host';
import type { PermissionRequest } from '../../src/shared/worker-protocol';

// The tool round-trip benchmark through the real worker: every call asks main, and a denial is never timed.

let root: string;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-bench-tool-')));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('bench.toolRoundtrip', () => {
  it('measures a positive p50 through the real engine', async () => {
    const r = await benchToolRoundtrip(root);
    expect(r.tool_roundtrip_overhead_p50_us).toBeGreaterThan(0);
    // The command-output render numbers come from the worker's headless terminal (bundled in the worker).
    expect(r.command_render_small_p50_us).toBeGreaterThan(0);
    expect(r.command_render_spinner_ms).toBeGreaterThan(0);
    expect(r.command_render_10mb_lines_ms).toBeGreaterThan(0);
  }, 120_000);

  it('asks main before every read and fails when main denies', async () => {
    fs.writeFileSync(path.join(root, 'bench-small.txt'), 'x\n');
    const host = createNodeWorkerHost({ configDir: root });
    const seen: PermissionRequest[] = [];
    let allowLeft = 3;
    host.handle('permission.request', async (request) => {
      seen.push(request);
      if (allowLeft-- > 0) return { decision: 'allow', source: 'mode', rule: null, reason: 'test allows' };
      return { decision: 'deny', source: 'mode', rule: null, reason: 'test denies' };
    });
    await host.start();
    try {
      const ok = await host.request('bench.toolRoundtrip', { projectRoot: root, count: 3 });
      expect(ok.samples).toBe(3);
      expect(seen.map((s) => s.tool)).toEqual(['read_file', 'read_file', 'read_file']);
      await expect(host.request('bench.toolRoundtrip', { projectRoot: root, count: 2 })).rejects.toThrow(
        /not allowed.*test denies/,
      );
      expect(seen).toHaveLength(4);
    } finally {
      await host.stop();
    }
  }, 60_000);
});
