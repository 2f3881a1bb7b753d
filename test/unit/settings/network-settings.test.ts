import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { networkSettingsProblems, readNetworkSettings } from '../../../src/main/core/network/network-settings';
import { workerTrustEnv } from '../../../src/main/core/network/worker-trust-env';
import { SettingsStore } from '../../../src/main/core/settings/settings-store';
import { settingsWarnings } from '../../../src/main/core/settings/settings-problems';
import { NETWORK_TRUST_ENV, NetworkTrustSchema, type TlsCaApi } from '../../../src/shared/node/trusted-cas';
import { WorkerNetworkTrust } from '../../../src/worker/network-trust';

// `network.caFile`: read from the person's settings and the managed policy only, handed to the worker, refused (and
// said so) in a project's files.

const [rootA, rootB] = tls.rootCertificates as [string, string];
let root: string;
let configDir: string;
let home: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-network-settings-')));
  configDir = path.join(root, 'config');
  home = path.join(root, 'home');
  fs.mkdirSync(configDir);
  fs.mkdirSync(home);
  env = { HOME: home, GATEHOUSE_POLICY: path.join(root, 'policy.yaml') };
});
/** The stores a test opened: their last good versions are written in the background, before the folder goes. */
const opened: SettingsStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.flush()));
  fs.rmSync(root, { recursive: true, force: true });
});

function write(file: string, text: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}
const userFile = (): string => path.join(configDir, 'settings.yaml');

/** A Node that can replace its default CAs (22.19+, 24.5+, Electron's). */
const modern: TlsCaApi = { getCACertificates: () => [], setDefaultCACertificates: () => undefined };
/** Node 20, as the CLI may run on. */
const old: TlsCaApi = {};

describe('readNetworkSettings', () => {
  it("takes the policy's and the person's CA files, ~/ meaning the home", async () => {
    write(env.GATEHOUSE_POLICY!, 'network:\n  caFile: /etc/corp/root.pem\n');
    write(userFile(), 'network:\n  caFile: ~/certs/proxy.pem\n');
    expect(await readNetworkSettings({ configDir, env })).toEqual({
      caFiles: [
        { file: '/etc/corp/root.pem', from: env.GATEHOUSE_POLICY },
        { file: path.join(home, 'certs', 'proxy.pem'), from: userFile() },
      ],
      errors: [],
    });
  });

  it('a relative path or a malformed block is an error naming the settings file', async () => {
    write(userFile(), 'network:\n  caFile: certs/proxy.pem\n');
    write(env.GATEHOUSE_POLICY!, 'network:\n  caFile: 42\n  proxy: http://x\n');
    const { caFiles, errors } = await readNetworkSettings({ configDir, env });
    expect(caFiles).toEqual([]);
    expect(errors).toEqual([
      expect.stringMatching(new RegExp(`^${env.GATEHOUSE_POLICY}: network\\.`)),
      `${userFile()}: network.caFile: "certs/proxy.pem" is not an absolute path (write it in full, or from ~/)`,
    ]);
  });

  it("the Settings page's warnings name a CA file that is not PEM", async () => {
    const key = write(path.join(root, 'proxy.key'), '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n');
    write(userFile(), `network:\n  caFile: ${key}\n`);
    expect(await networkSettingsProblems({ configDir, env })).toEqual([
      `network.caFile ${key}: not a PEM certificate file (no "-----BEGIN CERTIFICATE-----" line) (set in ${userFile()})`,
    ]);
  });
});

describe("workerTrustEnv: what the worker's environment gets", () => {
  it('nothing set: nothing added on a Node that installs the system store itself', async () => {
    expect(await workerTrustEnv({ configDir, env }, modern)).toEqual({});
  });

  it('on such a Node the CA files travel to the worker, which installs them', async () => {
    const ca = write(path.join(root, 'ca.pem'), rootA);
    write(userFile(), `network:\n  caFile: ${ca}\n`);
    const out = await workerTrustEnv({ configDir, env }, modern);
    expect(Object.keys(out)).toEqual([NETWORK_TRUST_ENV]);
    expect(NetworkTrustSchema.parse(JSON.parse(out[NETWORK_TRUST_ENV]!))).toEqual({
      caFiles: [{ file: ca, from: userFile() }],
      errors: [],
    });
  });

  it('on Node 20: the one CA file as NODE_EXTRA_CA_CERTS', async () => {
    expect(await workerTrustEnv({ configDir, env }, old)).toEqual({});
    const ca = write(path.join(root, 'ca.pem'), rootA);
    write(userFile(), `network:\n  caFile: ${ca}\n`);
    expect(await workerTrustEnv({ configDir, env }, old)).toEqual({
      NODE_EXTRA_CA_CERTS: ca,
      [NETWORK_TRUST_ENV]: JSON.stringify({ caFiles: [{ file: ca, from: userFile() }], errors: [] }),
    });
  });

  it("on Node 20, several files (yours, the policy's, your own NODE_EXTRA_CA_CERTS) become one bundle", async () => {
    const mine = write(path.join(root, 'mine.pem'), rootA);
    const corp = write(path.join(root, 'corp.pem'), rootB);
    const envFile = write(path.join(root, 'env.pem'), tls.rootCertificates[2]!);
    write(userFile(), `network:\n  caFile: ${mine}\n`);
    write(env.GATEHOUSE_POLICY!, `network:\n  caFile: ${corp}\n`);
    const out = await workerTrustEnv({ configDir, env: { ...env, NODE_EXTRA_CA_CERTS: envFile } }, old);
    const bundle = out.NODE_EXTRA_CA_CERTS!;
    expect(path.dirname(bundle)).toBe(path.join(configDir, 'ca-bundles'));
    const text = fs.readFileSync(bundle, 'utf8');
    for (const cert of [rootA, rootB, tls.rootCertificates[2]!]) expect(text).toContain(cert.trim());
    expect(fs.statSync(bundle).mode & 0o077).toBe(0);
    // The same files make the same bundle: a second worker start writes nothing new.
    expect(
      (await workerTrustEnv({ configDir, env: { ...env, NODE_EXTRA_CA_CERTS: envFile } }, old)).NODE_EXTRA_CA_CERTS,
    ).toBe(bundle);
    expect(fs.readdirSync(path.dirname(bundle))).toHaveLength(1);
  });
});

describe('WorkerNetworkTrust: the worker before its first connection', () => {
  it('installs the system store and the CA files once', async () => {
    const ca = write(path.join(root, 'ca.pem'), rootB);
    const installed: string[][] = [];
    const api: TlsCaApi = {
      getCACertificates: (type) => (type === 'system' ? ['SYSTEM'] : ['BUNDLED']),
      setDefaultCACertificates: (certs) => void installed.push(certs),
    };
    const trust = new WorkerNetworkTrust(
      { [NETWORK_TRUST_ENV]: JSON.stringify({ caFiles: [{ file: ca, from: userFile() }], errors: [] }) },
      api,
    );
    await trust.required();
    await trust.required();
    expect(installed).toEqual([['BUNDLED', 'SYSTEM', rootB.trim()]]);
  });

  it('a broken CA file or a broken variable stops the run, naming the file', async () => {
    const missing = path.join(root, 'gone.pem');
    const broken = new WorkerNetworkTrust(
      { [NETWORK_TRUST_ENV]: JSON.stringify({ caFiles: [{ file: missing, from: userFile() }], errors: [] }) },
      old,
    );
    await expect(broken.required()).rejects.toThrow(
      `network.caFile ${missing}: no such file (set in ${userFile()}); the model is not contacted until this is fixed`,
    );
    await expect(new WorkerNetworkTrust({ [NETWORK_TRUST_ENV]: '{"caFiles": 1}' }, old).required()).rejects.toThrow(
      /GATEHOUSE_NETWORK_TRUST is malformed/,
    );
    await expect(new WorkerNetworkTrust({}, old).required()).resolves.toBeUndefined();
  });

  it('an Electron without setDefaultCACertificates says it cannot take the file (its fuses ignore NODE_EXTRA_CA_CERTS)', async () => {
    const ca = write(path.join(root, 'ca.pem'), rootB);
    const settings = JSON.stringify({ caFiles: [{ file: ca, from: userFile() }], errors: [] });
    await expect(new WorkerNetworkTrust({ [NETWORK_TRUST_ENV]: settings }, old, '45.5.0').required()).rejects.toThrow(
      /Electron 45\.5\.0 \(Node .*\) cannot add network\.caFile to its trusted CAs/,
    );
    await expect(
      new WorkerNetworkTrust({ [NETWORK_TRUST_ENV]: settings }, modern, '45.5.0').required(),
    ).resolves.toBeUndefined();
    await expect(
      new WorkerNetworkTrust({ [NETWORK_TRUST_ENV]: settings }, old, undefined).required(),
    ).resolves.toBeUndefined();
  });
});

describe("a project's settings cannot add a certificate authority", () => {
  async function snapshotWarnings(): Promise<string[]> {
    const project = path.join(root, 'project');
    const store = new SettingsStore({ projectRoot: project, configDir, home, env, cliRules: [] });
    opened.push(store);
    return settingsWarnings(await store.snapshot());
  }

  it('network.caFile in a project or local file is reported as ignored, with its line; yours and the policy are not', async () => {
    const project = path.join(root, 'project');
    const shared = write(
      path.join(project, '.gatehouse', 'settings.yaml'),
      `permissions:\n  allow: ["Bash(ls)"]\nnetwork:\n  caFile: ${path.join(project, 'ca.pem')}\n`,
    );
    const local = write(path.join(project, '.gatehouse', 'settings.local.yaml'), 'network: { caFile: /tmp/ca.pem }\n');
    write(userFile(), 'network:\n  caFile: /etc/corp/root.pem\n');
    write(env.GATEHOUSE_POLICY!, 'network:\n  caFile: /etc/corp/root.pem\n');
    const because =
      "network.caFile is not read from a project's settings: only your user settings and the managed policy can add a certificate authority (ignored; the rest of the file applies)";
    expect(await snapshotWarnings()).toEqual([
      `settings warning: ${local}:1: ${because}`,
      `settings warning: ${shared}:4: ${because}`,
    ]);
  });

  it('a misspelt key is reported with the right one', async () => {
    write(userFile(), 'network:\n  cafile: /etc/corp/root.pem\n');
    expect(await snapshotWarnings()).toEqual([
      expect.stringContaining(`${userFile()}:2: unknown key "network.cafile" (did you mean caFile?)`),
    ]);
  });
});
