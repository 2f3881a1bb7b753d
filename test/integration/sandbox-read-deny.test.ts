import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPermissionEngine } from '../../src/main/core/permission/create-engine';
import { fixedTrust } from '../../src/main/core/permission/trust-oracle';
import { type PermissionEngine } from '../../src/main/core/permission/engine';
import { readDenyMask, sandboxReadDeny, TOO_MANY_FILES } from '../../src/main/core/sandbox/read-deny-mask';
import type { ReadDenyMaskWire } from '../../src/shared/worker-protocol';
import { CommandConfinement, defaultSandboxConfig } from '../../src/worker/command-confinement';
import { createCommandSandbox } from '../../src/sandbox/command-sandbox';
import { type CommandSandbox } from '../../src/sandbox/types';
import { makeWorld, noBwrapReason, runIn, type SandboxWorld } from '../unit/sandbox/support';

const SECRETS = ['KEY-SECRET-1', 'ENV-SECRET-2', 'ENV-SECRET-3', 'ABS-SECRET-4', 'LINKED-SECRET-5'];

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

function expectNoSecret(output: string): void {
  for (const s of SECRETS) expect(output).not.toContain(s);
}

describe.skipIf(noBwrapReason !== null)(
  `Read deny rules hide files inside the sandbox (real bubblewrap${noBwrapReason ? `; skipped: ${noBwrapReason}` : ''})`,
  () => {
    let world: SandboxWorld;
    let engine: PermissionEngine;
    let mask: ReadDenyMaskWire;
    let sandbox: CommandSandbox;
    let absSecret: string;

    beforeAll(async () => {
      world = makeWorld();
      const p = world.project;
      write(path.join(p, 'secrets', 'key.txt'), 'api key = KEY-SECRET-1\n');
      write(path.join(p, '.env'), 'key=ENV-SECRET-2\n');
      write(path.join(p, 'sub', 'deeper', '.env'), 'key=ENV-SECRET-3\n');
      write(path.join(p, 'src', 'app.txt'), 'public key = visible\n');
      absSecret = path.join(world.outside, 'x', 'secret');
      write(absSecret, 'key ABS-SECRET-4\n');
      write(path.join(world.outside, 'plain.txt'), 'key LINKED-SECRET-5\n');
      fs.symlinkSync(path.join(p, 'secrets', 'key.txt'), path.join(p, 'innocent-link'));
      fs.symlinkSync(absSecret, path.join(p, 'abs-link'));
      fs.symlinkSync(path.join(world.outside, 'plain.txt'), path.join(p, 'sub', '.env')); // named like a denied file
      // The project's own (untrusted) settings: its deny rules apply all the same.
      write(
        path.join(p, '.gatehouse', 'settings.yaml'),
        'permissions:\n  deny: ["Read(./secrets/**)", "Read(.env)"]\n',
      );
      engine = await createPermissionEngine({
        projectRoot: p,
        configDir: world.userConfigDir,
        env: { HOME: world.home },
        trust: fixedTrust(false),
        cliRules: [
          { behavior: 'deny', rule: `Read(/${absSecret})` },
          // inside ~/.ssh, which the sandbox hides anyway: no second mask (an empty read-only tmpfs has no room for it)
          { behavior: 'deny', rule: 'Read(~/.ssh/id_rsa)' },
        ],
        audit: null,
      });
      mask = await sandboxReadDeny(engine, []);
      const created = await createCommandSandbox(world.config({ hiddenPaths: mask.hidden }));
      if (created.kind !== 'sandbox') throw new Error(`sandbox unavailable: ${created.reason}`);
      sandbox = created;
    });
    afterAll(async () => {
      await sandbox?.dispose();
      world?.remove();
    });

    it('lists what the rules deny, from the engine’s own rules', () => {
      expect(mask.incomplete).toBeUndefined();
      const byPath = new Map(mask.hidden.map((h) => [h.path, h.rule]));
      expect(byPath.get(path.join(world.project, 'secrets'))).toBe('Read(./secrets/**)');
      expect(byPath.get(path.join(world.project, '.env'))).toBe('Read(.env)');
      expect(byPath.get(path.join(world.project, 'sub', 'deeper', '.env'))).toBe('Read(.env)');
      expect(byPath.get(path.join(world.outside, 'plain.txt'))).toBe('Read(.env)'); // the target of sub/.env
      expect(byPath.get(absSecret)).toBe(`Read(/${absSecret})`);
      expect(byPath.get(path.join(world.home, '.ssh', 'id_rsa'))).toBe('Read(~/.ssh/id_rsa)');
      expect(byPath.has(path.join(world.project, 'src', 'app.txt'))).toBe(false);
    });

    it('a recursive grep, cat through sh -c and python do not reveal the denied files; the rest still reads', async () => {
      const r = await runIn(
        sandbox,
        `grep -rn key . ; sh -c 'cat secrets/key.txt'; python3 -c "print(open('.env').read())"; cat innocent-link abs-link sub/.env ${absSecret}; true`,
      );
      expectNoSecret(r.output);
      expect(r.output).toContain('./src/app.txt:1:public key = visible');
      expect(r.violation).toContain('blocked by sandbox: secrets is hidden by the Read deny rule Read(./secrets/**)');
    });

    it('tar, cp -r and find -exec cat read nothing of them either', async () => {
      const r = await runIn(
        sandbox,
        'tar cf - . 2>/dev/null | strings; cp -r secrets copied 2>&1; cat copied/* 2>&1; find . -type f -exec cat {} + 2>/dev/null; true',
      );
      expectNoSecret(r.output);
      expect(r.output).toContain('public key = visible');
    });

    it('writes in the project still work; writing into a hidden folder neither lands nor reveals it', async () => {
      const r = await runIn(
        sandbox,
        'echo made > made.txt && cat made.txt; echo x > secrets/new.txt; mv secrets/key.txt moved.txt; ls -A secrets; cat moved.txt; true',
      );
      expect(r.output).toContain('made');
      expectNoSecret(r.output);
      expect(fs.readFileSync(path.join(world.project, 'made.txt'), 'utf8')).toBe('made\n');
      expect(fs.existsSync(path.join(world.project, 'secrets', 'new.txt'))).toBe(false);
      expect(fs.readFileSync(path.join(world.project, 'secrets', 'key.txt'), 'utf8')).toContain('KEY-SECRET-1');
    });

    it('hides a file that went away from nothing: a mask is made only for what exists at each command', async () => {
      const gone = path.join(world.project, 'sub', 'deeper', '.env');
      fs.renameSync(gone, `${gone}.bak`);
      try {
        const r = await runIn(sandbox, 'ls -A sub/deeper; true');
        expect(r.exitCode).toBe(0);
        expect(fs.existsSync(gone)).toBe(false); // no mount point made on the host
      } finally {
        fs.renameSync(`${gone}.bak`, gone);
      }
    });

    it('past the bound the list is incomplete and the sandbox reports unavailable with the reason', async () => {
      const big = path.join(world.root, 'big');
      for (let i = 0; i < 40; i++) write(path.join(big, `d${i % 4}`, `f${i}.txt`), 'x');
      const bigEngine = await createPermissionEngine({
        projectRoot: big,
        configDir: world.userConfigDir,
        env: { HOME: world.home },
        trust: fixedTrust(true),
        cliRules: [{ behavior: 'deny', rule: 'Read(*.pem)' }],
        audit: null,
      });
      const state = await bigEngine.state.current();
      const partial = await readDenyMask(
        { rules: state.rules, projectRoot: big, home: world.home, additionalDirectories: [] },
        { maxEntries: 10 },
      );
      expect(partial.incomplete).toBe(TOO_MANY_FILES);
      const confinement = new CommandConfinement();
      try {
        const config = {
          ...defaultSandboxConfig({ HOME: world.home }),
          userConfigDir: world.userConfigDir,
          readDeny: { hidden: partial.hidden, incomplete: TOO_MANY_FILES },
        };
        const status = await confinement.status(big, [], config);
        expect(status).toMatchObject({ enabled: true, available: false, reason: TOO_MANY_FILES });
        // within the bound: available
        const whole = await readDenyMask({
          rules: state.rules,
          projectRoot: big,
          home: world.home,
          additionalDirectories: [],
        });
        expect(whole.incomplete).toBeUndefined();
        expect(await confinement.status(big, [], { ...config, readDeny: { hidden: whole.hidden } })).toMatchObject({
          available: true,
        });
      } finally {
        await confinement.dispose();
      }
    });
  },
);
