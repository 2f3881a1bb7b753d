import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../../..');
const script = path.join(root, 'scripts/electronegativity.mjs');
const run = promisify(execFile);

interface Report {
  findings: Array<{ check: string; severity: string; file: string }>;
  failing: number;
}

async function scan(input: string): Promise<{ code: number; report: Report }> {
  try {
    const { stdout } = await run(process.execPath, [script, '--input', input, '--json'], {
      cwd: root,
      timeout: 120_000,
    });
    return { code: 0, report: JSON.parse(stdout.trim().split('\n').pop()!) as Report };
  } catch (err) {
    const e = err as { code: number; stdout: string };
    return { code: e.code, report: JSON.parse(e.stdout.trim().split('\n').pop()!) as Report };
  }
}

const temp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-eneg-')));
afterAll(() => fs.rmSync(temp, { recursive: true, force: true }));

describe('Electronegativity (npm run electronegativity)', () => {
  it('finds no HIGH issue in src/, and does flag an insecure app', async () => {
    fs.writeFileSync(
      path.join(temp, 'main.js'),
      "const { BrowserWindow } = require('electron');\n" +
        'const w = new BrowserWindow({ webPreferences: { nodeIntegration: true, contextIsolation: false, sandbox: false, webSecurity: false } });\n' +
        "w.loadURL('http://example.com/');\n",
    );
    const [ours, insecure] = await Promise.all([scan(path.join(root, 'src')), scan(temp)]);
    expect(ours.report.findings.filter((f) => f.severity === 'HIGH' || f.severity === 'CRITICAL')).toEqual([]);
    expect(ours.code).toBe(0);
    expect(insecure.code).toBe(1);
    expect(insecure.report.failing).toBeGreaterThan(0);
    expect(insecure.report.findings.map((f) => f.check)).toEqual(
      expect.arrayContaining(['WEB_SECURITY_JS_CHECK', 'SANDBOX_JS_CHECK', 'LIMIT_NAVIGATION_GLOBAL_CHECK']),
    );
  }, 180_000);
});
