import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const REPO = path.resolve(__dirname, '../../..');

/** A fresh real (symlink-resolved) temp folder. */
export function tempDir(prefix = 'gh-trust-'): string {
  return fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
}

export function mkdirs(root: string, ...dirs: string[]): void {
  for (const d of dirs) fs.mkdirSync(path.join(root, d), { recursive: true });
}

export function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

function cliWorks(cli: string): boolean {
  try {
    execFileSync(process.execPath, [cli, 'trust', '--help'], { stdio: 'pipe', timeout: 20_000 });
    return true;
  } catch {
    return false;
  }
}

/**
 * A private copy of the built CLI (others rebuild `out/` while tests run): builds first if `out/main/cli.js` is
 * missing or has no `trust` command. The copy lives under the repo so its dependencies resolve from node_modules.
 */
export function privateCli(): { cli: string; cleanup(): void } {
  const built = path.join(REPO, 'out/main/cli.js');
  if (!fs.existsSync(built) || !cliWorks(built))
    execFileSync('npm', ['run', 'build'], { cwd: REPO, stdio: 'pipe', timeout: 120_000 });
  const base = path.join(REPO, 'test-results');
  fs.mkdirSync(base, { recursive: true });
  const dir = fs.mkdtempSync(path.join(base, 'trust-cli-'));
  for (let attempt = 0; ; attempt++) {
    fs.rmSync(path.join(dir, 'main'), { recursive: true, force: true });
    try {
      fs.cpSync(path.join(REPO, 'out/main'), path.join(dir, 'main'), { recursive: true });
    } catch {
      // out/ was being rewritten: try again
    }
    const cli = path.join(dir, 'main/cli.js');
    if (fs.existsSync(cli) && cliWorks(cli))
      return { cli, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
    if (attempt >= 4) throw new Error('could not get a working copy of out/main/cli.js');
    execFileSync('sleep', ['1']);
  }
}
