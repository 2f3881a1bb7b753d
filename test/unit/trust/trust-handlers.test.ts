import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTrustHandlers } from '../../../src/main/services/app/trust-handlers';
import { dispatchApi } from '../../../src/main/services/app/api-dispatch';
import type { ApiHandlers } from '../../../src/main/services/app/api-dispatch';
import { TrustStore } from '../../../src/main/core/trust/trust-store';
import { GatehouseError } from '../../../src/shared/errors';
import { mkdirs, tempDir, write } from './helpers';

let root: string;
let project: string | null;
let store: TrustStore;
let changed: string[];
const p = (...s: string[]) => path.join(root, ...s);

function handlers() {
  return createTrustHandlers({ currentProject: () => project }, store, (x) => changed.push(x));
}
/** Through the real dispatcher, so requests and responses are checked against the contract. */
function call(channel: string, payload: unknown) {
  return dispatchApi(handlers() as unknown as ApiHandlers, channel, payload);
}

beforeEach(() => {
  root = tempDir();
  mkdirs(root, 'config', 'work/proj', 'work/other');
  project = p('work/proj');
  store = new TrustStore({ configDir: p('config') });
  changed = [];
  write(p('work/proj/.gatehouse/settings.yaml'), 'permissions:\n  allow: ["Bash(npm test)"]\n');
  write(p('work/proj/AGENTS.md'), 'hi\n');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('trust channels', () => {
  it('getTrust: the open project, undecided, with its parent and what it would load', async () => {
    const answer = (await call('getTrust', {})) as Awaited<ReturnType<ReturnType<typeof handlers>['getTrust']>>;
    expect(answer.project).toBe(p('work/proj'));
    expect(answer.parent).toBe(p('work'));
    expect(answer.status).toMatchObject({ trusted: false, needsDecision: true });
    expect(answer.preview?.allowRules.map((r) => r.rule)).toEqual(['Bash(npm test)']);
    expect(answer.preview?.instructionFiles).toHaveLength(1);
    const other = (await call('getTrust', { path: p('work/other') })) as typeof answer;
    expect(other.status?.path).toBe(p('work/other'));
    expect(other.preview).toBeNull();
    project = null;
    expect(await call('getTrust', {})).toEqual({ project: null, status: null, parent: null, preview: null });
  });

  it('setTrust grants trust to the open project and announces it; revokeTrust and listTrust follow', async () => {
    const set = (await call('setTrust', { path: p('work/proj'), scope: 'directory' })) as {
      status: { trusted: boolean };
    };
    expect(set.status.trusted).toBe(true);
    expect(changed).toEqual([p('work/proj')]);
    expect(await call('listTrust', {})).toMatchObject({
      entries: [{ path: p('work/proj'), scope: 'directory', stored: true }],
      default: 'ask',
      error: null,
    });
    const revoked = (await call('revokeTrust', { path: p('work/proj') })) as {
      removed: unknown[];
      status: { trusted: boolean };
    };
    expect(revoked.removed).toHaveLength(1);
    expect(revoked.status.trusted).toBe(false);
    await call('setTrust', { path: p('work/proj'), scope: 'session' });
    expect((await store.check(p('work/proj'))).decision).toBe('session');
  });

  it('refuses to grant trust to any folder but the open project (a compromised page cannot widen trust)', async () => {
    for (const scope of ['session', 'directory', 'parent']) {
      await expect(call('setTrust', { path: p('work/other'), scope })).rejects.toMatchObject({ code: 'FORBIDDEN' });
      await expect(call('setTrust', { path: p('work/proj/..'), scope })).rejects.toBeInstanceOf(GatehouseError);
    }
    project = null;
    await expect(call('setTrust', { path: p('work/proj'), scope: 'directory' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    expect(await store.list()).toEqual([]);
    // restricting is always allowed
    await call('setTrust', { path: p('work/other'), scope: 'never' });
    expect((await store.check(p('work/other'))).decision).toBe('never');
  });

  it('a symlink to the open project is the open project', async () => {
    fs.symlinkSync(p('work/proj'), p('alias'));
    const set = (await call('setTrust', { path: p('alias'), scope: 'directory' })) as { status: { path: string } };
    expect(set.status.path).toBe(p('work/proj'));
  });

  it('malformed requests are rejected whole by the contract', async () => {
    await expect(call('setTrust', { path: p('work/proj'), scope: 'always' })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    await expect(call('setTrust', { path: '', scope: 'directory' })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(call('revokeTrust', { path: p('work/proj'), extra: 1 })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
    });
    await expect(call('getTrust', { path: 42 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });
});
