import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

const cli = path.resolve(__dirname, '..', '..', '..', 'out', 'main', 'cli.js');

let root: string;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-lastgood-')));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('a broken settings file in a fresh process', () => {
  it.skipIf(!fs.existsSync(cli))(
    'keeps applying the last good version seen by an earlier process',
    () => {
      const project = path.join(root, 'project');
      fs.mkdirSync(path.join(project, '.gatehouse'), { recursive: true });
      const env = {
        ...process.env,
        HOME: path.join(root, 'home'),
        GATEHOUSE_HOME: path.join(root, 'gh'),
        GATEHOUSE_POLICY: path.join(root, 'policy.yaml'),
      };
      const check = (command: string) =>
        JSON.parse(
          execFileSync(
            process.execPath,
            [
              cli,
              'permissions',
              'check',
              '--project',
              project,
              '--mode',
              'bypassPermissions',
              '--call',
              JSON.stringify({ tool: 'run_command', input: { command } }),
            ],
            {
              env,
              encoding: 'utf8',
            },
          ),
        );
      const settings = path.join(project, '.gatehouse', 'settings.yaml');
      fs.writeFileSync(settings, 'permissions:\n  deny: ["Bash(git push:*)"]\n');
      expect(check('git push')).toMatchObject({ decision: 'deny', source: 'project' });
      fs.writeFileSync(settings, 'permissions:\n  deny: ["Bash(git push:*)"\n  allow: [Bash]\n');
      expect(check('git push')).toMatchObject({ decision: 'deny', source: 'project' });
    },
    180_000,
  );
});
