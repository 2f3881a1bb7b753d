import { describe, expect, it } from 'vitest';
import { bwrapArgs, shQuote, type BwrapPlan } from '../../../src/sandbox/bwrap-args';

const plan = (extra: Partial<BwrapPlan> = {}): BwrapPlan => ({
  bwrapPath: '/usr/bin/bwrap',
  projectRoot: '/home/u/proj',
  writableRoots: ['/home/u/proj', '/data/extra'],
  privateTmp: '/tmp/gatehouse-sandbox-tmp-1',
  masks: [
    { path: '/home/u/proj/.ssh', isDirectory: true },
    { path: '/home/u/.netrc', isDirectory: false },
  ],
  guards: {
    pins: ['/home/u/proj/.git'],
    readOnly: ['/home/u/proj/.git/hooks'],
    placeholders: ['/home/u/proj/.claude'],
  },
  network: { kind: 'none' },
  ...extra,
});

function indexOfPair(args: string[], flag: string, value: string): number {
  return args.findIndex((a, i) => a === flag && args[i + 1] === value);
}

describe('bwrapArgs', () => {
  it('binds / read-only, the project and extra roots writable, and masks secrets after them', () => {
    const args = bwrapArgs(plan(), 'make test');
    expect(args.slice(0, 2)).toEqual(['--die-with-parent', '--unshare-all']);
    expect(args).not.toContain('--new-session'); // it would take the pty away as controlling terminal
    expect(indexOfPair(args, '--ro-bind', '/')).toBeGreaterThan(-1);
    const project = indexOfPair(args, '--bind', '/home/u/proj');
    const mask = indexOfPair(args, '--tmpfs', '/home/u/proj/.ssh');
    expect(project).toBeGreaterThan(indexOfPair(args, '--ro-bind', '/'));
    expect(mask).toBeGreaterThan(project);
    expect(indexOfPair(args, '--ro-bind', '/dev/null')).toBeGreaterThan(project);
    expect(indexOfPair(args, '--ro-bind', '/home/u/proj/.git/hooks')).toBeGreaterThan(
      indexOfPair(args, '--bind', '/home/u/proj/.git'),
    );
    expect(indexOfPair(args, '--bind', '/home/u/proj/.git')).toBeGreaterThan(project);
    // a placeholder gets an empty read-only tmpfs, after the read-only binds and before the masks
    const placeholder = indexOfPair(args, '--tmpfs', '/home/u/proj/.claude');
    expect(args.slice(placeholder, placeholder + 4)).toEqual([
      '--tmpfs',
      '/home/u/proj/.claude',
      '--remount-ro',
      '/home/u/proj/.claude',
    ]);
    expect(placeholder).toBeGreaterThan(indexOfPair(args, '--ro-bind', '/home/u/proj/.git/hooks'));
    expect(placeholder).toBeLessThan(mask);
    expect(args.slice(-4)).toEqual(['--', 'bash', '-c', 'make test']);
  });

  it('runs a program and its arguments itself, no shell: a bridge shell (network) reads no start-up file', () => {
    const argv = ['node', 'server.js', '$HOME', '`id`'];
    expect(bwrapArgs(plan(), { argv }).slice(-5)).toEqual(['--', ...argv]);
    const proxied = bwrapArgs(
      plan({ network: { kind: 'proxy', hostSocketDir: '/tmp/net', socatPath: '/usr/bin/socat' } }),
      { argv },
    );
    const dash = proxied.lastIndexOf('--');
    expect(proxied.slice(dash + 1, dash + 5)).toEqual(['bash', '--noprofile', '--norc', '-c']);
    expect(proxied[dash + 5]!.endsWith('exec "$@"')).toBe(true);
    expect(proxied.slice(dash + 6)).toEqual(['gatehouse-sandbox', ...argv]);
  });

  it('passes the command as one argument, never re-parsed by a host shell', () => {
    const evil = `"; rm -rf / #' $(id) \`id\``;
    const args = bwrapArgs(
      plan({ network: { kind: 'proxy', hostSocketDir: '/tmp/net', socatPath: '/usr/bin/socat' } }),
      evil,
    );
    expect(args[args.length - 1]).toBe(evil);
    expect(args[args.length - 2]).toBe('gatehouse-sandbox');
    expect(indexOfPair(args, '--ro-bind', '/tmp/net')).toBeGreaterThan(-1);
  });

  it('quotes for the shell', () => {
    expect(shQuote(`it's`)).toBe(`'it'\\''s'`);
  });

  it('binds an opened socket back inside the masked folder that holds it, before that folder turns read-only', () => {
    const args = bwrapArgs(
      plan({
        masks: [
          { path: '/run/user/1000', isDirectory: true },
          { path: '/run/user/1000/gnupg', isDirectory: true },
          { path: '/run/docker.sock', isDirectory: false },
        ],
        openSockets: ['/run/user/1000/gnupg/S.gpg-agent.ssh', '/run/docker.sock', '/tmp/ssh-X/agent.1'],
      }),
      'git push',
    );
    const from = args.indexOf('/run/user/1000') - 1;
    expect(args.slice(from, from + 10)).toEqual([
      '--tmpfs',
      '/run/user/1000',
      '--remount-ro',
      '/run/user/1000',
      '--tmpfs',
      '/run/user/1000/gnupg',
      '--bind',
      '/run/user/1000/gnupg/S.gpg-agent.ssh',
      '/run/user/1000/gnupg/S.gpg-agent.ssh',
      '--remount-ro',
    ]);
    // a socket masked as a file, or in the private /tmp: bound after every mask, over it
    const lastMask = indexOfPair(args, '--ro-bind', '/dev/null');
    expect(indexOfPair(args, '--bind', '/run/docker.sock')).toBeGreaterThan(lastMask);
    expect(indexOfPair(args, '--bind', '/tmp/ssh-X/agent.1')).toBeGreaterThan(
      indexOfPair(args, '--bind', '/tmp/gatehouse-sandbox-tmp-1'),
    );
  });
});
