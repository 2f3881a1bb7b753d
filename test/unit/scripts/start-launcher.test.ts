import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../../..');
const LAUNCHER = path.join(ROOT, 'scripts/start.mjs');

describe('npm start without an Electron runtime', () => {
  it('explains itself in one paragraph and prints the browser-shell command, with no stack trace', () => {
    // An empty folder where Electron's binary should be: what a machine without the download looks like.
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-no-electron-'));
    try {
      const run = spawnSync(process.execPath, [LAUNCHER], {
        cwd: ROOT,
        env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: empty },
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(run.status).toBe(1);
      expect(run.stdout).toBe('');
      const text = run.stderr;
      expect(text).toMatch(/^Gatehouse's desktop app needs the Electron runtime, which is not installed here \(/);
      expect(text).toContain(empty);
      expect(text).toContain('node out/main/cli.js web --project .');
      expect(text).not.toMatch(/\n\s+at /); // no stack trace
      expect(text).not.toContain('Downloading');
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
