import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommandSandbox } from '../../src/sandbox/command-sandbox';
import { type CommandSandbox } from '../../src/sandbox/types';
import { makeWorld, runIn, type SandboxWorld } from '../unit/sandbox/support';

// The real Seatbelt sandbox (macOS only): the same guarantees as bubblewrap through the same interface.

const SANDBOX_EXEC = '/usr/bin/sandbox-exec';
const skipReason =
  process.platform !== 'darwin'
    ? `not macOS (${process.platform}): Seatbelt is macOS only`
    : !fs.existsSync(SANDBOX_EXEC)
      ? `${SANDBOX_EXEC} is missing`
      : null;
if (skipReason) console.warn(`sandbox-seatbelt tests skipped: ${skipReason}`);

describe.skipIf(skipReason !== null)(
  `sandboxed commands on macOS (real sandbox-exec${skipReason ? `; skipped: ${skipReason}` : ''})`,
  () => {
    let world: SandboxWorld;
    let sandbox: CommandSandbox;
    let extra: string;
    let server: http.Server;
    let port = 0;

    beforeAll(async () => {
      world = makeWorld();
      extra = path.join(world.root, 'extra');
      fs.mkdirSync(extra);
      server = http.createServer((_req, res) => res.end('hello-from-loopback\n'));
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      port = (server.address() as AddressInfo).port;
      const created = await createCommandSandbox(
        world.config({ additionalDirectories: [extra], allowedDomains: [`127.0.0.1:${port}`] }),
      );
      if (created.kind !== 'sandbox') throw new Error(`sandbox unavailable: ${created.reason}`);
      sandbox = created;
    });
    afterAll(async () => {
      await sandbox?.dispose();
      await new Promise<void>((r) => server.close(() => r()));
      world?.remove();
    });

    it('uses Seatbelt, writes in the project, an additional directory and its private temp dir', async () => {
      expect(sandbox.mechanism).toBe('seatbelt');
      const r = await runIn(
        sandbox,
        `echo a > inside.txt && echo b > ${extra}/e.txt && echo c > "$TMPDIR/t.txt" && cat inside.txt`,
      );
      expect(r.exitCode, r.output).toBe(0);
      expect(fs.readFileSync(path.join(world.project, 'inside.txt'), 'utf8')).toBe('a\n');
      expect(fs.readFileSync(path.join(extra, 'e.txt'), 'utf8')).toBe('b\n');
    });

    it('refuses a write outside and says so', async () => {
      const target = path.join(fs.realpathSync(world.outside), 'escaped.txt');
      const r = await runIn(sandbox, `echo x > ${target}`);
      expect(fs.existsSync(target)).toBe(false);
      expect(r.violation).toContain('blocked by sandbox: write outside the project');
    });

    it('hides ~/.ssh and our config dir', async () => {
      const r = await runIn(sandbox, 'cat ~/.ssh/id_rsa; cat ~/.config/gatehouse/trust.json; true');
      expect(r.output).not.toContain('PRIVATE-KEY-MATERIAL');
      expect(r.output).not.toContain('trusted');
    });

    it('reaches only the allowed host, through the proxy', async () => {
      const ok = await runIn(sandbox, `curl -sS -m 5 http://127.0.0.1:${port}/`);
      expect(ok.output).toContain('hello-from-loopback');
      const direct = await runIn(sandbox, `curl -sS -m 5 --noproxy '*' http://127.0.0.1:${port}/`);
      expect(direct.output).not.toContain('hello-from-loopback');
    });

    it('keeps the rules and git hooks read-only, existing or not, in any case, and .git in place', async () => {
      const p = world.project;
      fs.mkdirSync(path.join(p, '.claude'), { recursive: true });
      fs.writeFileSync(path.join(p, '.claude', 'settings.json'), '{}\n');
      fs.mkdirSync(path.join(p, '.git', 'objects'), { recursive: true });
      fs.writeFileSync(path.join(p, '.git', 'config'), '[core]\n');
      const r = await runIn(
        sandbox,
        [
          'echo x > .claude/settings.json',
          'echo x > .CLAUDE/settings.local.json',
          'mkdir -p .gatehouse && echo x > .gatehouse/settings.yaml',
          'mkdir -p .GateHouse',
          'mkdir -p .git/hooks && echo x > .git/hooks/pre-commit',
          'echo x >> .git/config',
          'mv .git .git-old',
          'rm -rf .claude',
          'echo ok > normal.txt && echo blob > .git/objects/blob && echo normal-ok',
        ]
          .map((c) => `{ ${c} ; } 2>&1`)
          .join('\n'),
      );
      expect(r.output).toContain('normal-ok');
      expect(fs.readFileSync(path.join(p, '.claude', 'settings.json'), 'utf8')).toBe('{}\n');
      expect(fs.readdirSync(path.join(p, '.claude'))).toEqual(['settings.json']);
      for (const absent of ['.gatehouse', '.GateHouse', '.git-old'])
        expect(fs.readdirSync(p), absent).not.toContain(absent);
      expect(fs.readdirSync(path.join(p, '.git')).sort()).toEqual(['config', 'objects']);
      expect(fs.readFileSync(path.join(p, '.git', 'config'), 'utf8')).toBe('[core]\n');
    });
  },
);
