import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCommandSandbox } from '../../../src/sandbox/command-sandbox';
import { isSandboxAvailable } from '../../../src/sandbox/types';
import { makeWorld, noBwrapReason, type SandboxWorld } from './support';

describe('an unavailable sandbox says why (never a sandbox that does nothing)', () => {
  let world: SandboxWorld;
  beforeAll(() => {
    world = makeWorld();
  });
  afterAll(() => world.remove());

  it('no bubblewrap at the given path', async () => {
    const s = await createCommandSandbox(world.config({ bwrapPath: '/nonexistent/bwrap' }));
    expect(isSandboxAvailable(s)).toBe(false);
    expect(s).toEqual({ kind: 'unavailable', reason: 'bubblewrap was not found at /nonexistent/bwrap' });
  });

  it('no bubblewrap on PATH', async () => {
    const original = process.env.PATH;
    process.env.PATH = world.root;
    try {
      const s = await createCommandSandbox(world.config());
      expect(s.kind === 'unavailable' && s.reason).toMatch(
        /bubblewrap \(bwrap\) was not found on PATH|no command sandbox on/,
      );
    } finally {
      process.env.PATH = original;
    }
  });

  it('a file that is not executable', async () => {
    const file = path.join(world.root, 'not-exec');
    fs.writeFileSync(file, '#!/bin/sh\n');
    const s = await createCommandSandbox(world.config({ bwrapPath: file }));
    expect(s.kind).toBe('unavailable');
  });

  it.skipIf(process.platform !== 'linux')('a bubblewrap that does not work (the probe fails)', async () => {
    for (const fake of ['/bin/false', '/bin/true']) {
      const s = await createCommandSandbox(world.config({ bwrapPath: fake }));
      expect(s.kind === 'unavailable' && s.reason, fake).toMatch(/^bubblewrap does not work here: /);
    }
  });

  it.skipIf(noBwrapReason !== null)('an allowed domain without socat', async () => {
    const s = await createCommandSandbox(
      world.config({ allowedDomains: ['example.com'], socatPath: '/nonexistent/socat' }),
    );
    expect(s.kind === 'unavailable' && s.reason).toMatch(/socat was not found/);
  });

  it.skipIf(noBwrapReason !== null)('a project folder that does not exist', async () => {
    const s = await createCommandSandbox(world.config({ projectRoot: path.join(world.root, 'missing') }));
    expect(s.kind === 'unavailable' && s.reason).toMatch(/the project folder does not exist/);
  });
});
