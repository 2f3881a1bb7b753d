import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CommandConfinement, defaultSandboxConfig } from '../../src/worker/command-confinement';
import { findOnPath } from '../../src/sandbox/find-binary';

const bwrap = process.platform === 'linux' ? await findOnPath('bwrap') : null;

// The worker's choice of command wrapper per run: sandbox, scrubbed direct (turned off), or unavailable.

let root: string;
let project: string;
let confinement: CommandConfinement;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-confinement-')));
  project = path.join(root, 'project');
  fs.mkdirSync(project);
  confinement = new CommandConfinement();
});
afterEach(async () => {
  await confinement.dispose();
  fs.rmSync(root, { recursive: true, force: true });
});

const config = (over: Partial<ReturnType<typeof defaultSandboxConfig>> = {}) => ({
  enabled: true,
  allowedDomains: [],
  envAllowList: [],
  userConfigDir: path.join(root, 'config'),
  home: root,
  ...over,
});

describe('CommandConfinement', () => {
  it('turned off by the user: plain bash in the project, environment still scrubbed', async () => {
    process.env.GATEHOUSE_TEST_SERVICE_TOKEN = 'tok';
    try {
      const c = await confinement.resolve(project, [], config({ enabled: false }));
      expect(c.status).toMatchObject({ enabled: false, available: false });
      const w = await c.wrapper.wrap('echo hi');
      expect(w).toMatchObject({ file: 'bash', args: ['-c', 'echo hi'], cwd: project });
      expect(w.env.GATEHOUSE_TEST_SERVICE_TOKEN).toBeUndefined();
      expect(w.env.PATH).toBe(process.env.PATH);
    } finally {
      delete process.env.GATEHOUSE_TEST_SERVICE_TOKEN;
    }
  });

  it('a bubblewrap that does not exist: unavailable, with the reason; commands fall back to scrubbed bash', async () => {
    const c = await confinement.resolve(project, [], config({ bwrapPath: path.join(root, 'no-bwrap') }));
    expect(c.status).toEqual({
      enabled: true,
      available: false,
      reason: `bubblewrap was not found at ${path.join(root, 'no-bwrap')}`,
      shell: 'bash',
    });
    expect((await c.wrapper.wrap('true')).file).toBe('bash');
  });

  it('protects the user config dir under its given and its real name', async () => {
    const real = path.join(root, 'real-config');
    fs.mkdirSync(real);
    fs.symlinkSync(real, path.join(root, 'config'));
    const c = await confinement.resolve(project, [], config({ enabled: false }));
    expect(c.protectedPaths).toEqual([path.join(root, 'config'), real]);
  });

  it.skipIf(bwrap === null)('a working sandbox is reused for the same project and configuration', async () => {
    const a = await confinement.resolve(project, [], config());
    expect(a.status).toEqual({ enabled: true, available: true, mechanism: 'bubblewrap', shell: 'bash' });
    const b = await confinement.resolve(project, [], config());
    expect(b.wrapper).toBe(a.wrapper);
    expect((await a.wrapper.wrap('true')).file).not.toBe('bash');
  });

  it('no configuration from main: the fail-safe default (on, no network)', () => {
    const d = defaultSandboxConfig({ HOME: root, GATEHOUSE_HOME: path.join(root, 'gh') });
    expect(d).toEqual({
      enabled: true,
      allowedDomains: [],
      envAllowList: [],
      userConfigDir: path.join(root, 'gh'),
      home: root,
    });
  });
});
