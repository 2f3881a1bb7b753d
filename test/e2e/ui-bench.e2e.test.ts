import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chromiumSkipReason } from './support/browser';
import { REPO_ROOT, requireBuiltApp } from './support/start-web';

const BENCH = path.join(REPO_ROOT, 'out/main/bench.js');
const UI_KEYS = [
  'ui_stream_longest_task_ms',
  'ui_stream_p95_frame_ms',
  'ui_open_5000_messages_ms',
  'ui_first_content_ms',
  'ui_first_ready_ms',
];

/** Runs the built bench's UI part with a short stream; the last stdout line is its JSON. Timings are never asserted. */
function runUiBench(env: NodeJS.ProcessEnv): { status: number | null; json: Record<string, unknown>; stderr: string } {
  requireBuiltApp();
  expect(fs.existsSync(BENCH)).toBe(true);
  const r = spawnSync(process.execPath, [BENCH, '--json', '--only', 'ui', '--quick'], {
    cwd: REPO_ROOT,
    env: { ...process.env, GATEHOUSE_BENCH_UI_STREAM_MS: '1500', ...env },
    encoding: 'utf8',
    timeout: 150_000,
  });
  const last = r.stdout.trim().split('\n').pop() ?? '';
  return { status: r.status, json: JSON.parse(last || '{}') as Record<string, unknown>, stderr: r.stderr };
}

describe('npm run bench: the UI bench in Chromium', { timeout: 180_000 }, () => {
  it.skipIf(chromiumSkipReason() !== null)(
    'runs end to end with a short stream and prints the UI keys as numbers',
    () => {
      const { status, json, stderr } = runUiBench({});
      expect(stderr).not.toContain('skipped');
      expect(status).toBe(0);
      for (const key of UI_KEYS) expect(typeof json[key], key).toBe('number');
      expect(json.ui_stream_tokens as number).toBeGreaterThan(1000); // ~2,000 tokens/s for 1.5 s reached the page's run
    },
  );

  it('without Chromium it says the UI part was skipped and why, and still prints its JSON line', () => {
    const { status, json, stderr } = runUiBench({ GATEHOUSE_CHROMIUM: '/nonexistent/chromium' });
    expect(status).toBe(0);
    expect(stderr).toMatch(/ui\s+skipped: \/nonexistent\/chromium is not installed/);
    expect(json).toEqual({});
  });
});
