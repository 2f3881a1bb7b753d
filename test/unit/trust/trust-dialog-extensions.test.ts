import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dispatchApi } from '../../../src/main/services/app/api-dispatch';
import type { ApiHandlers } from '../../../src/main/services/app/api-dispatch';
import { createHooksHandlers } from '../../../src/main/services/app/hooks-handlers';
import { createTrustHandlers } from '../../../src/main/services/app/trust-handlers';
import { storeOracle } from '../../../src/main/core/trust/trust-extensions';
import { TrustStore } from '../../../src/main/core/trust/trust-store';
import { mkdirs, tempDir, write } from './helpers';

let root: string;
let store: TrustStore;
const p = (...s: string[]) => path.join(root, ...s);

/** The trust and hooks channels of an app whose open project is work/proj, through the real dispatcher. */
function call(channel: string, payload: unknown): Promise<unknown> {
  const core = { currentProject: () => p('work/proj') };
  const handlers = {
    ...createTrustHandlers(core, store),
    ...createHooksHandlers({ ...core, configDir: p('config'), env: { HOME: p('home') }, trust: storeOracle(store) }),
  };
  return dispatchApi(handlers as unknown as ApiHandlers, channel, payload);
}

interface HookList {
  trusted: boolean;
  hooksEnabled: boolean;
  hooks: { event: string; scope: string; command: string | null; active: boolean; inactiveReason: string | null }[];
}

beforeEach(() => {
  root = tempDir();
  mkdirs(root, 'config', 'home', 'work/proj');
  store = new TrustStore({ configDir: p('config') });
  write(
    p('work/proj/.gatehouse/settings.yaml'),
    'hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: ./check.sh\n',
  );
  write(
    p('config/settings.yaml'),
    'hooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: notify-send done\n',
  );
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe("the trust dialog's extension switches and the Hooks page's list", () => {
  it('setTrust stores what the answer enables; listHooks says the project hook is off and why, the user hook runs', async () => {
    const before = (await call('listHooks', {})) as HookList;
    expect(before.trusted).toBe(false);
    expect(before.hooks.map((h) => [h.scope, h.event, h.command, h.active])).toEqual([
      ['project', 'PreToolUse', './check.sh', false],
      ['user', 'Stop', 'notify-send done', true],
    ]);
    expect(before.hooks[0]?.inactiveReason).toMatch(/not trusted/);

    await call('setTrust', {
      path: p('work/proj'),
      scope: 'directory',
      extensions: { rules: true, hooks: false, instructions: true },
    });
    expect((await store.check(p('work/proj'))).extensions).toEqual({
      rules: true,
      hooks: false,
      instructions: true,
      mcp: true, // absent in the request (an earlier page): on, as before
    });
    const off = (await call('listHooks', {})) as HookList;
    expect(off).toMatchObject({ trusted: true, hooksEnabled: false });
    expect(off.hooks[0]?.inactiveReason).toMatch(/does not enable its hooks/);

    await call('setTrustExtensions', { path: p('work/proj'), extensions: { hooks: true } });
    const on = (await call('listHooks', {})) as HookList;
    expect(on.hooks.map((h) => h.active)).toEqual([true, true]);
  });

  it('a "never" answer ignores the switches; a malformed switch is refused at the boundary', async () => {
    await call('setTrust', {
      path: p('work/proj'),
      scope: 'never',
      extensions: { rules: false, hooks: false, instructions: false },
    });
    expect(await store.list()).toEqual([expect.not.objectContaining({ extensions: expect.anything() })]);
    await expect(
      call('setTrust', { path: p('work/proj'), scope: 'directory', extensions: { hooks: 'yes' } }),
    ).rejects.toThrow(/extensions/);
  });
});
