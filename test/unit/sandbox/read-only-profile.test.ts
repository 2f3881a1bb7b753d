import { describe, expect, it } from 'vitest';
import { bwrapArgs, type BwrapPlan } from '../../../src/sandbox/bwrap-args';
import { readOnlyBwrapArgs, readOnlyEnv, type ReadOnlyBwrapPlan } from '../../../src/sandbox/read-only-profile';
import { SECCOMP_FD } from '../../../src/sandbox/read-only-seccomp';

const plan = (extra: Partial<ReadOnlyBwrapPlan> = {}): ReadOnlyBwrapPlan => ({
  projectRoot: '/home/u/proj',
  roots: ['/home/u/proj', '/tmp/extra'],
  masks: [
    { path: '/home/u/.ssh', isDirectory: true },
    { path: '/home/u/proj/.env', isDirectory: false },
  ],
  seccomp: false,
  ...extra,
});

/** Each `FLAG A B` triple of a bubblewrap argv (mount operations), before the `--`. */
function mounts(args: string[]): string[][] {
  const end = args.indexOf('--');
  const out: string[][] = [];
  for (let i = 0; i < end; i++) {
    const a = args[i]!;
    if (['--bind', '--ro-bind', '--dev-bind', '--bind-try', '--dev-bind-try'].includes(a)) {
      out.push([a, args[i + 1]!, args[i + 2]!]);
      i += 2;
    } else if (['--tmpfs', '--remount-ro', '--dev', '--proc', '--chdir', '--cap-drop'].includes(a)) {
      out.push([a, args[i + 1]!]);
      i += 1;
    } else out.push([a]);
  }
  return out;
}

describe('the read-only profile (bubblewrap argv)', () => {
  it('has no writable bind at all: / and every root read-only, /tmp a fresh tmpfs, no proxy, no capabilities', () => {
    const args = readOnlyBwrapArgs(plan(), 'rg TODO');
    const m = mounts(args);
    expect(m.filter((x) => x[0] === '--bind' || x[0]!.startsWith('--dev-bind') || x[0] === '--bind-try')).toEqual([]);
    expect(m).toContainEqual(['--ro-bind', '/', '/']);
    expect(m).toContainEqual(['--ro-bind', '/home/u/proj', '/home/u/proj']);
    // A root under the host /tmp is shown again (read-only) over the private tmpfs.
    const tmpfs = m.findIndex((x) => x[0] === '--tmpfs' && x[1] === '/tmp');
    expect(tmpfs).toBeGreaterThan(-1);
    expect(m.findIndex((x) => x[0] === '--ro-bind' && x[1] === '/tmp/extra')).toBeGreaterThan(tmpfs);
    expect(args.slice(0, 4)).toEqual(['--die-with-parent', '--unshare-all', '--cap-drop', 'ALL']);
    expect(args).not.toContain('--share-net');
    expect(args.join(' ')).not.toMatch(/gatehouse-net|socat|proxy/);
    expect(args.slice(-4)).toEqual(['--', 'bash', '-c', 'rg TODO']);
  });

  it('masks the secrets and the Read-denied files after the roots, as the workspace profile does', () => {
    const m = mounts(readOnlyBwrapArgs(plan(), 'ls'));
    const root = m.findIndex((x) => x[0] === '--ro-bind' && x[1] === '/home/u/proj');
    const dirMask = m.findIndex((x) => x[0] === '--tmpfs' && x[1] === '/home/u/.ssh');
    expect(m[dirMask + 1]).toEqual(['--remount-ro', '/home/u/.ssh']);
    expect(m).toContainEqual(['--ro-bind', '/dev/null', '/home/u/proj/.env']);
    expect(dirMask).toBeGreaterThan(root);
    expect(m.findIndex((x) => x[1] === '/dev/null')).toBeGreaterThan(root);
    // The same masks as the workspace profile would put on the same plan.
    const workspace: BwrapPlan = {
      bwrapPath: '/usr/bin/bwrap',
      projectRoot: '/home/u/proj',
      writableRoots: plan().roots,
      privateTmp: '/tmp/gatehouse-sandbox-tmp-1',
      masks: plan().masks,
      guards: { pins: [], readOnly: [], placeholders: [] },
      network: { kind: 'none' },
    };
    const masksOf = (mm: string[][]) =>
      mm.filter((x) => x[1] === '/dev/null' || (x[0] === '--tmpfs' && x[1] !== '/tmp')).map((x) => x.join(' '));
    expect(masksOf(m)).toEqual(masksOf(mounts(bwrapArgs(workspace, 'ls'))));
  });

  it('loads the seccomp filter from its descriptor when there is one', () => {
    const args = readOnlyBwrapArgs(plan({ seccomp: true }), 'ls');
    const at = args.indexOf('--seccomp');
    expect(args[at + 1]).toBe(String(SECCOMP_FD));
    expect(at).toBeGreaterThan(-1);
    expect(at).toBeLessThan(args.indexOf('--'));
    expect(readOnlyBwrapArgs(plan(), 'ls')).not.toContain('--seccomp');
  });

  it('passes the command as one argument, never re-parsed by a host shell', () => {
    const evil = `"; touch /x #' $(id) \`id\``;
    const args = readOnlyBwrapArgs(plan(), evil);
    expect(args[args.length - 1]).toBe(evil);
    expect(args.filter((a) => a.includes('touch /x'))).toHaveLength(1);
  });
});

describe('the read-only profile (environment)', () => {
  const base = {
    PATH: '/usr/bin',
    HOME: '/home/u',
    GITHUB_TOKEN: 'ghp_x',
    ANTHROPIC_API_KEY: 'sk-ant-x',
    HTTPS_PROXY: 'http://corp:8080',
    NPM_TOKEN: 'npm_x',
  };

  it("turns git's optional locks off, names the profile, keeps secrets scrubbed and sets no proxy", () => {
    const env = readOnlyEnv(base, ['NPM_TOKEN']);
    expect(env.GIT_OPTIONAL_LOCKS).toBe('0');
    expect(env.GATEHOUSE_SANDBOX_PROFILE).toBe('read-only');
    expect(env.TMPDIR).toBe('/tmp');
    expect(env.GITHUB_TOKEN).toBeUndefined();
    expect(env.ANTHROPIC_API_KEY).toBeUndefined();
    expect(env.NPM_TOKEN).toBe('npm_x'); // the allow-list applies as in the workspace profile
    for (const name of Object.keys(env)) expect(name.toUpperCase()).not.toMatch(/PROXY/);
  });

  it('points the temp variables at the folder it is given (Seatbelt: one made for the command)', () => {
    const env = readOnlyEnv(base, [], '/private/var/folders/x/T/gatehouse-sandbox-tmp-9-abcdef');
    expect(env.TMPDIR).toBe('/private/var/folders/x/T/gatehouse-sandbox-tmp-9-abcdef');
    expect(env.XDG_CACHE_HOME).toBe('/private/var/folders/x/T/gatehouse-sandbox-tmp-9-abcdef/.cache');
  });
});
