import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSandboxHandlers } from '../../../src/main/services/app/sandbox-handlers';
import type { SandboxHandlerSources } from '../../../src/main/services/app/sandbox-handlers';
import { GatehouseError } from '../../../src/shared/errors';
import { SandboxStatusViewSchema } from '../../../src/shared/sandbox-contract';
import type { SandboxStatus, SandboxStatusParamsSchema } from '../../../src/shared/worker-protocol';
import { removeAfterWrites } from '../../support/remove-after-writes';
import type { z } from 'zod';

type StatusParams = z.infer<typeof SandboxStatusParamsSchema>;

/** A worker that answers `sandbox.status` with `answer(params)` and records what main sent. */
function fakeHost(answer: (params: StatusParams) => SandboxStatus | Error): {
  host: SandboxHandlerSources['host'];
  sent: Array<{ method: string; params: unknown }>;
} {
  const sent: Array<{ method: string; params: unknown }> = [];
  const host: SandboxHandlerSources['host'] = {
    request: (async (method: string, params: StatusParams) => {
      sent.push({ method, params });
      const result = answer(params);
      if (result instanceof Error) throw result;
      return result;
    }) as SandboxHandlerSources['host']['request'],
  };
  return { host, sent };
}

describe('getSandboxStatus', () => {
  let configDir: string;
  let project: string;
  beforeEach(() => {
    configDir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-sbx-handler-home-')));
    project = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-sbx-handler-project-')));
  });
  // The handlers' settings stores record last-good entries under the config folder in the background: a plain removal
  // could run before one is written, which then re-creates `settings-last-good` in a folder nobody removes.
  afterEach(async () => {
    for (const dir of [configDir, project]) await removeAfterWrites(dir);
  });

  function handlers(
    host: SandboxHandlerSources['host'],
    open: string | null = project,
    env: NodeJS.ProcessEnv = { HOME: configDir },
  ) {
    return createSandboxHandlers({
      host,
      configDir,
      env,
      project: () => open,
      trust: { isTrusted: () => Promise.resolve(true) },
    });
  }

  it('asks the worker with the settings-derived config (the GATEHOUSE_BWRAP override travels) and reports the reason', async () => {
    const { host, sent } = fakeHost((params) => ({
      enabled: params.sandbox.enabled,
      available: false,
      reason: `cannot run ${params.sandbox.bwrapPath}`,
    }));
    const view = await handlers(host, project, { HOME: configDir, GATEHOUSE_BWRAP: '/nonexistent' }).getSandboxStatus(
      {},
    );
    expect(SandboxStatusViewSchema.parse(view)).toEqual({
      enabled: true,
      available: false,
      reason: 'cannot run /nonexistent',
      warnings: [],
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]?.method).toBe('sandbox.status');
    expect(sent[0]?.params).toMatchObject({
      projectRoot: project,
      sandbox: { enabled: true, bwrapPath: '/nonexistent', userConfigDir: configDir },
    });
  });

  it('the user turning it off in settings.yaml -> enabled false, no reason', async () => {
    fs.writeFileSync(path.join(configDir, 'settings.yaml'), 'sandbox:\n  enabled: false\n');
    const { host, sent } = fakeHost((params) => ({
      enabled: params.sandbox.enabled,
      available: false,
      reason: 'turned off',
    }));
    expect(await handlers(host).getSandboxStatus({})).toEqual({
      enabled: false,
      available: false,
      reason: null,
      warnings: [],
    });
    expect(sent[0]?.params).toMatchObject({ sandbox: { enabled: false } });
  });

  it('a project file cannot turn it off, and a malformed user file is reported while the sandbox stays on', async () => {
    fs.mkdirSync(path.join(project, '.gatehouse'));
    fs.writeFileSync(path.join(project, '.gatehouse', 'settings.yaml'), 'sandbox:\n  enabled: false\n');
    fs.writeFileSync(path.join(configDir, 'settings.yaml'), 'sandbox: [not, a, block\n');
    const { host, sent } = fakeHost(() => ({ enabled: true, available: true }));
    const view = await handlers(host).getSandboxStatus({});
    expect(sent[0]?.params).toMatchObject({ sandbox: { enabled: true } });
    expect(view.enabled).toBe(true);
    expect(view.available).toBe(true);
    expect(view.reason).toBeNull();
    expect(view.warnings.length).toBeGreaterThan(0);
  });

  it('a worker that cannot answer means unavailable (fail safe), never fine', async () => {
    const { host } = fakeHost(() => new GatehouseError('WORKER_CRASHED', 'the worker exited'));
    const view = await handlers(host).getSandboxStatus({});
    expect(view.enabled).toBe(true);
    expect(view.available).toBe(false);
    expect(view.reason).toContain('the worker exited');
  });

  it('sends what a chat session would: the additional directories and what the Read deny rules hide', async () => {
    const shared = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-sbx-handler-shared-')));
    try {
      fs.mkdirSync(path.join(project, 'secrets'));
      fs.writeFileSync(path.join(project, 'secrets', 'key.txt'), 'k');
      fs.writeFileSync(
        path.join(configDir, 'settings.yaml'),
        `permissions:\n  deny: ["Read(./secrets/**)"]\n  additionalDirectories: ["${shared}"]\n`,
      );
      const { host, sent } = fakeHost(() => ({ enabled: true, available: true }));
      await handlers(host).getSandboxStatus({});
      const params = sent[0]?.params as StatusParams;
      expect(params.additionalDirectories).toEqual([shared]);
      expect(params.sandbox.readDeny?.hidden.map((h) => h.path)).toContain(path.join(project, 'secrets'));
      expect(params.sandbox.readDeny?.incomplete).toBeUndefined();

      // A rule the mask cannot honour (every read denied) travels as incomplete: the worker then reports unavailable.
      fs.writeFileSync(path.join(configDir, 'settings.yaml'), 'permissions:\n  deny: ["Read"]\n');
      await handlers(host).getSandboxStatus({});
      expect((sent[1]?.params as StatusParams).sandbox.readDeny?.incomplete).toEqual(expect.any(String));
    } finally {
      fs.rmSync(shared, { recursive: true, force: true });
    }
  });

  it('no open project -> not available, and the worker is not asked', async () => {
    const { host, sent } = fakeHost(() => ({ enabled: true, available: true }));
    expect(await handlers(host, null).getSandboxStatus({})).toEqual({
      enabled: true,
      available: false,
      reason: 'no project is open',
      warnings: [],
    });
    expect(sent).toEqual([]);
  });
});
