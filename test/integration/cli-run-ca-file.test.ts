import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { reply, startFakeAnthropic, text, toolUse } from '../support/fake-anthropic';
import { canReplaceDefaultCAs } from '../../src/shared/node/trusted-cas';
import type { FakeAnthropic } from '../support/fake-anthropic';
import { makeTestCa, type TestCa } from '../support/test-ca';
import { makeSandbox, runGatehouse, TRUST_ALL } from './agent-helpers';
import type { Sandbox } from './agent-helpers';

// `gatehouse run` (the built bundle, its worker a Node child process) against a Messages API server behind TLS whose
// certificate a throwaway CA signed: what a TLS-inspecting proxy looks like to Gatehouse. The CA is trusted only
// through `network.caFile` in the person's settings or the managed policy, never through a project's.

let dir: string;
let ca: TestCa;
let otherCa: TestCa;
let fake: FakeAnthropic;
beforeAll(async () => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-ca-file-')));
  fs.mkdirSync(path.join(dir, 'proxy'));
  fs.mkdirSync(path.join(dir, 'other'));
  ca = await makeTestCa(path.join(dir, 'proxy'));
  otherCa = await makeTestCa(path.join(dir, 'other'), 'Another CA');
  fake = await startFakeAnthropic({ tls: { key: ca.key, cert: ca.cert } });
});
afterAll(async () => {
  await fake.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

let box: Sandbox;
let policy: string;
beforeEach(() => {
  fake.requests.splice(0);
  box = makeSandbox(fake);
  policy = path.join(box.configDir, 'machine-policy.yaml');
  box.env.GATEHOUSE_POLICY = policy;
});
afterEach(() => box.cleanup());

const userSettings = (yaml: string): void => fs.writeFileSync(path.join(box.configDir, 'settings.yaml'), yaml);
const run = (): ReturnType<typeof runGatehouse> =>
  runGatehouse(['run', '--project', box.project, 'hi'], box.env, box.home);

describe('gatehouse run behind a TLS-inspecting proxy', () => {
  it('without network.caFile the run fails at once with a certificate error that says what to do', async () => {
    expect(fake.baseURL).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const r = await run();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`cannot reach the model API at ${fake.baseURL}: unable to verify the first certificate`);
    expect(r.stderr).toMatch(/UNABLE_TO_VERIFY_LEAF_SIGNATURE.*set network\.caFile in your settings/);
    expect(fake.requests).toHaveLength(0);
  });

  it("with network.caFile naming the proxy's CA the turn completes", async () => {
    userSettings(`network:\n  caFile: ${ca.caFile}\n`);
    fake.enqueue(reply(text('Answered over TLS.')));
    const r = await run();
    expect(r.stderr).not.toMatch(/certificate|caFile/);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Answered over TLS.');
    expect(fake.requests).toHaveLength(1);
  });

  it("the managed policy's CA file applies beside your own NODE_EXTRA_CA_CERTS (~/ paths too)", async () => {
    fs.mkdirSync(path.join(box.home, 'certs'));
    fs.copyFileSync(ca.caFile, path.join(box.home, 'certs', 'proxy.pem'));
    fs.writeFileSync(policy, 'network:\n  caFile: ~/certs/proxy.pem\n');
    fake.enqueue(reply(text('Policy CA.')));
    const r = await runGatehouse(
      ['run', '--project', box.project, 'hi'],
      { ...box.env, NODE_EXTRA_CA_CERTS: otherCa.caFile },
      box.home,
    );
    expect(r.stderr).not.toMatch(/certificate|caFile/);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Policy CA.');
  });

  it('a CA file that is not PEM, or missing, is an error naming it, and the model is not contacted', async () => {
    const keyFile = path.join(dir, 'proxy', 'server.key');
    userSettings(`network:\n  caFile: ${keyFile}\n`);
    const r = await run();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `network.caFile ${keyFile}: not a PEM certificate file (no "-----BEGIN CERTIFICATE-----" line) (set in ${path.join(box.configDir, 'settings.yaml')}); the model is not contacted until this is fixed`,
    );
    const missing = path.join(dir, 'no-such-ca.pem');
    userSettings(`network:\n  caFile: ${missing}\n`);
    const r2 = await run();
    expect(r2.code).toBe(1);
    expect(r2.stderr).toContain(`network.caFile ${missing}: no such file`);
    expect(fake.requests).toHaveLength(0);
  });

  it("a project's settings cannot add a CA, trusted or not: ignored, with the reason on stderr", async () => {
    userSettings(TRUST_ALL);
    fs.mkdirSync(path.join(box.project, '.gatehouse'));
    const planted = path.join(box.project, '.gatehouse', 'settings.yaml');
    fs.writeFileSync(planted, `network:\n  caFile: ${ca.caFile}\n`);
    fs.writeFileSync(path.join(box.project, '.gatehouse', 'settings.local.yaml'), `network:\n  caFile: ${ca.caFile}\n`);
    const r = await run();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `settings warning: ${planted}:2: network.caFile is not read from a project's settings: only your user settings and the managed policy can add a certificate authority`,
    );
    expect(r.stderr).toContain('UNABLE_TO_VERIFY_LEAF_SIGNATURE');
    expect(fake.requests).toHaveLength(0);
  });

  it("auto mode's classifier, called from the gatehouse process itself, trusts the CA file too", async () => {
    const classifier = 'gatekeeper-tls';
    userSettings(`${TRUST_ALL}network:\n  caFile: ${ca.caFile}\nauto:\n  classifierModel: ${classifier}\n`);
    const classified = (): number => fake.requests.filter((q) => q.body.model === classifier).length;
    const runAuto = (env: NodeJS.ProcessEnv): ReturnType<typeof runGatehouse> => {
      fake.enqueue(reply(toolUse('t1', 'run_command', { command: 'touch done.txt' })), reply(text('Done.')));
      return runGatehouse(['run', '--project', box.project, '--mode', 'auto', 'mark it done'], env, box.home);
    };
    const allowed = reply(toolUse('c1', 'classify', { decision: 'allow', reason: 'marking it done was asked for' }));
    if (!canReplaceDefaultCAs()) {
      // This Node cannot take new CAs once started: the classifier's call fails, and says what to set.
      const r = await runAuto(box.env);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(
        /run_command touch done\.txt -> deny \(auto\): .*UNABLE_TO_VERIFY_LEAF_SIGNATURE.*network\.caFile reaches the worker only: set NODE_EXTRA_CA_CERTS to it as well/,
      );
      expect(classified()).toBe(0);
      fake.enqueueFor(classifier, allowed);
      const r2 = await runAuto({ ...box.env, NODE_EXTRA_CA_CERTS: ca.caFile });
      expect(r2.stdout).toMatch(/run_command touch done\.txt -> allow \(auto\)/);
    } else {
      fake.enqueueFor(classifier, allowed);
      const r = await runAuto(box.env);
      expect(r.stdout).toMatch(/run_command touch done\.txt -> allow \(auto\)/);
    }
    expect(classified()).toBe(1);
    expect(fs.existsSync(path.join(box.project, 'done.txt'))).toBe(true);
  });
});
