import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSandboxSettings } from '../../src/main/core/sandbox/sandbox-settings';
import { sandboxRunConfig } from '../../src/main/core/sandbox/run-config';

// The `sandbox:` settings main sends the worker: real files in temp folders, hostile project settings.

let root: string;
let configDir: string;
let projectRoot: string;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-sandbox-settings-')));
  configDir = path.join(root, 'config');
  projectRoot = path.join(root, 'project');
  fs.mkdirSync(configDir);
  fs.mkdirSync(path.join(projectRoot, '.gatehouse'), { recursive: true });
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const user = (yaml: string) => fs.writeFileSync(path.join(configDir, 'settings.yaml'), yaml);
const project = (yaml: string, name = 'settings.yaml') =>
  fs.writeFileSync(path.join(projectRoot, '.gatehouse', name), yaml);
const load = (projectTrusted: boolean) => loadSandboxSettings({ configDir, projectRoot, projectTrusted });

describe('sandbox settings', () => {
  it('no files: on, no network, nothing kept', async () => {
    expect(await load(true)).toEqual({
      enabled: true,
      allowedDomains: [],
      envAllowList: [],
      allowUnixSockets: [],
      problems: [],
    });
  });

  it('the user settings: enabled false, domains and env names count', async () => {
    user(
      'permissions:\n  allow: ["Read"]\nsandbox:\n  enabled: false\n  network:\n    allowedDomains: [example.com, "*.npmjs.org"]\n  envAllowList: [NPM_TOKEN]\n',
    );
    expect(await load(false)).toMatchObject({
      enabled: false,
      allowedDomains: ['example.com', '*.npmjs.org'],
      envAllowList: ['NPM_TOKEN'],
      problems: [],
    });
  });

  it('a project can never turn the sandbox off, trusted or not, shared or local file', async () => {
    project('sandbox:\n  enabled: false\n');
    project('sandbox:\n  enabled: false\n', 'settings.local.yaml');
    for (const trusted of [true, false]) {
      const s = await load(trusted);
      expect(s.enabled).toBe(true);
      expect(s.problems.join('\n')).toContain('only your user settings can turn the sandbox off');
    }
  });

  it('project domains and env names count only while the project is trusted', async () => {
    user('sandbox:\n  network:\n    allowedDomains: [user.example]\n');
    project('sandbox:\n  network:\n    allowedDomains: [evil.example]\n  envAllowList: [AWS_SECRET_ACCESS_KEY]\n');
    project('sandbox:\n  network:\n    allowedDomains: [local.example, user.example]\n', 'settings.local.yaml');
    const untrusted = await load(false);
    expect(untrusted.allowedDomains).toEqual(['user.example']);
    expect(untrusted.envAllowList).toEqual([]);
    expect(untrusted.problems.join('\n')).toContain('ignored until you trust this project');
    const trusted = await load(true);
    expect(trusted.allowedDomains).toEqual(['user.example', 'evil.example', 'local.example']);
    expect(trusted.envAllowList).toEqual(['AWS_SECRET_ACCESS_KEY']);
  });

  it('broken files are reported, never fatal, and fail safe (sandbox on)', async () => {
    const cases = [
      'sandbox:\n  enabled: [oops\n', // YAML error
      'sandbox:\n  enabled: "false"\n', // a string is not a boolean
      'sandbox:\n  enabld: false\n', // a typo is an error, not silently ignored
      'sandbox:\n  network:\n    allowedDomains: example.com\n', // not a list
      `a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\nb: &b [${Array(10).fill('*a').join(', ')}]\nc: &c [${Array(10).fill('*b').join(', ')}]\nd: [${Array(10).fill('*c').join(', ')}]\nsandbox: {enabled: false}\n`, // alias bomb
      'sandbox: {enabled: false}\nsandbox: {enabled: false}\n', // duplicate keys
    ];
    for (const text of cases) {
      user(text);
      const s = await load(true);
      expect(s.enabled, text).toBe(true);
      expect(s.problems.length, text).toBe(1);
      expect(s.problems[0], text).toContain(path.join(configDir, 'settings.yaml'));
    }
  });

  it('an unreadable user file (a directory) is a problem, and the sandbox stays on', async () => {
    fs.mkdirSync(path.join(configDir, 'settings.yaml'));
    const s = await load(true);
    expect(s.enabled).toBe(true);
    expect(s.problems).toHaveLength(1);
  });

  it('the run config: user config dir, HOME, and GATEHOUSE_BWRAP', async () => {
    const { config } = await sandboxRunConfig({
      configDir,
      projectRoot,
      projectTrusted: false,
      env: { HOME: root, GATEHOUSE_BWRAP: '/nonexistent/bwrap' },
    });
    expect(config).toEqual({
      enabled: true,
      allowedDomains: [],
      envAllowList: [],
      userConfigDir: configDir,
      home: root,
      bwrapPath: '/nonexistent/bwrap',
    });
    const plain = (
      await sandboxRunConfig({
        configDir,
        projectRoot,
        projectTrusted: false,
        env: { HOME: root, GATEHOUSE_BWRAP: ' ' },
      })
    ).config;
    expect(plain.bwrapPath).toBeUndefined();
  });
});

describe('sandbox.allowUnixSockets: a socket opened on purpose', () => {
  const policy = () => path.join(root, 'policy.yaml');
  const home = () => path.join(root, 'home');
  const loadAll = (projectTrusted: boolean) =>
    loadSandboxSettings({ configDir, projectRoot, projectTrusted, policyFile: policy(), home: home() });

  it('comes from the user settings (either spelling, ~ is the home) and the managed policy', async () => {
    user(
      'sandbox:\n  allowUnixSockets: [/run/user/1000/ssh-agent.socket, "~/.1password/agent.sock"]\n  network:\n    allowUnixSockets: [/run/user/1000/../1000/bus]\n',
    );
    fs.writeFileSync(policy(), 'sandbox:\n  allowUnixSockets: [/run/pcscd/pcscd.comm]\n');
    const s = await loadAll(false);
    expect(s.allowUnixSockets).toEqual([
      '/run/user/1000/ssh-agent.socket',
      path.join(home(), '.1password/agent.sock'),
      '/run/user/1000/bus',
      '/run/pcscd/pcscd.comm',
    ]);
    expect(s.problems).toEqual([]);
  });

  it('a path that is not absolute is left out, with the file and the reason', async () => {
    user('sandbox:\n  allowUnixSockets: [agent.sock, /ok.sock]\n');
    const s = await loadAll(true);
    expect(s.allowUnixSockets).toEqual(['/ok.sock']);
    expect(s.problems).toEqual([
      `${path.join(configDir, 'settings.yaml')}: sandbox.allowUnixSockets: "agent.sock" is not an absolute path (ignored)`,
    ]);
  });

  it("is never taken from a project's files, trusted or not; each file naming one is reported with the reason", async () => {
    project('sandbox:\n  allowUnixSockets: [/var/run/docker.sock]\n');
    project('sandbox:\n  network:\n    allowUnixSockets: [/run/user/1000/bus]\n', 'settings.local.yaml');
    fs.mkdirSync(path.join(projectRoot, '.claude'));
    const claude = JSON.stringify({ sandbox: { network: { allowUnixSockets: ['/var/run/docker.sock'] } } });
    fs.writeFileSync(path.join(projectRoot, '.claude', 'settings.json'), claude);
    fs.writeFileSync(path.join(projectRoot, '.claude', 'settings.local.json'), claude);
    for (const trusted of [true, false]) {
      const s = await loadAll(trusted);
      expect(s.allowUnixSockets, String(trusted)).toEqual([]);
      const why =
        'sandbox.allowUnixSockets is ignored: only your user settings and the managed policy can open a socket into the sandbox';
      expect(s.problems, String(trusted)).toEqual(
        expect.arrayContaining([
          `${path.join(projectRoot, '.gatehouse', 'settings.yaml')}: ${why}`,
          `${path.join(projectRoot, '.gatehouse', 'settings.local.yaml')}: ${why}`,
          `${path.join(projectRoot, '.claude', 'settings.json')}: ${why}`,
          `${path.join(projectRoot, '.claude', 'settings.local.json')}: ${why}`,
        ]),
      );
    }
  });

  it("Claude Code's user file is not read for it: reported, so the person knows where to put it", async () => {
    fs.mkdirSync(path.join(home(), '.claude'), { recursive: true });
    fs.writeFileSync(
      path.join(home(), '.claude', 'settings.json'),
      JSON.stringify({ sandbox: { network: { allowUnixSockets: ['/run/user/1000/ssh-agent.socket'] } } }),
    );
    const s = await loadAll(true);
    expect(s.allowUnixSockets).toEqual([]);
    expect(s.problems).toEqual([
      expect.stringMatching(
        /\.claude\/settings\.json: sandbox\.network\.allowUnixSockets is not applied: Gatehouse reads sandbox settings from its own settings\.yaml/,
      ),
    ]);
  });

  it('the run config carries the sockets, the runtime folder, and the variables of the person naming an opened one', async () => {
    const agentDir = path.join(root, 'run');
    fs.mkdirSync(agentDir);
    const agent = path.join(agentDir, 'ssh-agent.socket');
    fs.writeFileSync(agent, ''); // a real path (compared as named and as it really is)
    fs.symlinkSync(agent, path.join(root, 'agent-link'));
    user(`sandbox:\n  allowUnixSockets: ['${agent}']\n`);
    const { config } = await sandboxRunConfig({
      configDir,
      projectRoot,
      projectTrusted: true,
      env: {
        HOME: root,
        GATEHOUSE_POLICY: policy(),
        XDG_RUNTIME_DIR: agentDir,
        SSH_AUTH_SOCK: path.join(root, 'agent-link'),
        SSH_AGENT_PID: '77',
        DOCKER_HOST: `unix://${agentDir}/docker.sock`,
        DBUS_SESSION_BUS_ADDRESS: `unix:path=${agentDir}/bus`,
      },
    });
    expect(config).toMatchObject({
      allowUnixSockets: [agent],
      runtimeDir: agentDir,
      openSocketEnv: { SSH_AUTH_SOCK: path.join(root, 'agent-link') },
    });
  });
});
