import { describe, expect, it } from 'vitest';
import { CommandSandboxCache } from '../../../src/sandbox/sandbox-cache';
import type { CommandSandbox, CommandSandboxConfig } from '../../../src/sandbox/types';

function fakeSandbox(log: string[], name: string): CommandSandbox {
  return {
    kind: 'sandbox',
    mechanism: 'bubblewrap',
    wrap: async (command) => ({ file: 'bwrap', args: [command], env: {}, cwd: '/' }),
    wrapArgv: async (argv) => ({ file: 'bwrap', args: [...argv], env: {}, cwd: '/' }),
    wrapReadOnly: async (command) => ({ file: 'bwrap', args: ['--read-only', command], env: {}, cwd: '/' }),
    wrapUnsandboxed: (command) => ({ file: 'bash', args: ['-c', command], env: {}, cwd: '/' }),
    describeViolation: () => null,
    dispose: async () => {
      log.push(`dispose ${name}`);
    },
  };
}

const config = (projectRoot: string, allowedDomains: string[] = []): CommandSandboxConfig => ({
  projectRoot,
  additionalDirectories: [],
  userConfigDir: '/h/.config/gatehouse',
  home: '/h',
  allowedDomains,
});

describe('CommandSandboxCache', () => {
  it('creates once per configuration, reuses it, and disposes what it evicts', async () => {
    const log: string[] = [];
    const cache = new CommandSandboxCache(async (c) => {
      log.push(`create ${c.projectRoot} ${c.allowedDomains.join(',')}`);
      return fakeSandbox(log, c.projectRoot);
    }, 2);
    const a1 = await cache.get(config('/a'));
    const a2 = await cache.get(config('/a'));
    expect(a1).toBe(a2);
    await cache.get(config('/a', ['x.com'])); // other domains: another sandbox
    await cache.get(config('/b')); // evicts the least recently used ('/a' without domains), disposed in the background
    await expect.poll(() => log).toEqual(['create /a ', 'create /a x.com', 'create /b ', 'dispose /a']);
    await cache.disposeAll();
    expect(log.filter((l) => l.startsWith('dispose'))).toHaveLength(3);
  });

  it('caches an unavailable result with its reason', async () => {
    let calls = 0;
    const cache = new CommandSandboxCache(async () => {
      calls++;
      return { kind: 'unavailable', reason: 'no bwrap' };
    });
    expect(await cache.get(config('/a'))).toEqual({ kind: 'unavailable', reason: 'no bwrap' });
    await cache.get(config('/a'));
    expect(calls).toBe(1);
  });
});
