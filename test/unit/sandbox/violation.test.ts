import { describe, expect, it } from 'vitest';
import { describeViolation, pathsInLine, type ViolationContext } from '../../../src/sandbox/violation';

const ctx = (extra: Partial<ViolationContext> = {}): ViolationContext => ({
  projectRoot: '/home/u/proj',
  writableRoots: ['/home/u/proj', '/home/u/shared'],
  protectedPaths: ['/home/u/.ssh', '/home/u/.config/gatehouse'],
  home: '/home/u',
  allowedDomains: [],
  denials: [],
  ...extra,
});

describe('describeViolation', () => {
  it('names a write outside the project, however the tool printed it', () => {
    const outputs: Array<[string, string]> = [
      ["touch: cannot touch '/etc/x': Read-only file system", '/etc/x'],
      ['bash: line 1: /home/u/other/f: Read-only file system', '/home/u/other/f'],
      ["OSError: [Errno 30] Read-only file system: '/opt/a.txt'", '/opt/a.txt'],
      ["Error: EROFS: read-only file system, open '/usr/local/lib/x.js'", '/usr/local/lib/x.js'],
      ['mkdir: cannot create directory ‘/srv/data’: Read-only file system', '/srv/data'],
      ['bash: ../../escape.txt: Read-only file system', '/home/escape.txt'],
    ];
    for (const [output, p] of outputs) {
      expect(describeViolation(output, 1, ctx()), output).toBe(`blocked by sandbox: write outside the project: ${p}`);
    }
  });

  it('says nothing for failures inside writable roots, in /tmp, or that are not the sandbox', () => {
    for (const output of [
      "touch: cannot touch '/home/u/proj/ro.txt': Read-only file system",
      'bash: /home/u/shared/x: Read-only file system',
      'cp: /tmp/x: Read-only file system',
      'cat: /etc/shadow: Permission denied',
      "ls: cannot access '/nope': No such file or directory",
      'error TS2322: Type string is not assignable',
      '',
    ]) {
      expect(describeViolation(output, 1, ctx()), output).toBeNull();
    }
  });

  it('names reads and writes of protected paths, with ~ for the home', () => {
    expect(describeViolation('cat: /home/u/.ssh/id_rsa: No such file or directory', 1, ctx())).toBe(
      'blocked by sandbox: read of a protected path: ~/.ssh/id_rsa',
    );
    expect(describeViolation("cat: '~/.config/gatehouse/trust.json': No such file or directory", 1, ctx())).toBe(
      'blocked by sandbox: read of a protected path: ~/.config/gatehouse/trust.json',
    );
    expect(describeViolation('bash: /home/u/.ssh/authorized_keys: Read-only file system', 1, ctx())).toBe(
      'blocked by sandbox: write to a protected path: ~/.ssh/authorized_keys',
    );
    // a look-alike outside the protected folder is not a protected read
    expect(describeViolation('cat: /home/u/.sshfoo/x: No such file or directory', 1, ctx())).toBeNull();
  });

  it('names a guarded path (rules, hooks, git config) a write or a move hit, by its relative or absolute spelling', () => {
    const guarded = ctx({
      guarded: ['/home/u/proj/.claude', '/home/u/proj/.git/hooks', '/home/u/shared/.gatehouse'],
      pinned: ['/home/u/proj/.git'],
    });
    const says = (p: string): string =>
      `blocked by sandbox: ${p} is read-only in the sandbox: commands cannot change, move or remove permission rules, git hooks or git config`;
    expect(
      describeViolation("touch: cannot touch '.claude/settings.local.json': Read-only file system", 1, guarded),
    ).toBe(says('.claude'));
    expect(describeViolation('bash: line 1: ./.git/hooks/pre-commit: Read-only file system', 0, guarded)).toBe(
      says('.git/hooks'),
    );
    expect(describeViolation("mv: cannot move '.claude' to 'x': Device or resource busy", 1, guarded)).toBe(
      says('.claude'),
    );
    expect(describeViolation('bash: /home/u/shared/.gatehouse/settings.yaml: Read-only file system', 1, guarded)).toBe(
      says('~/shared/.gatehouse'),
    );
    expect(describeViolation("mv: cannot move '.git' to '.git-old': Device or resource busy", 1, guarded)).toBe(
      'blocked by sandbox: .git cannot be moved or removed in the sandbox (it leads to git hooks or git config)',
    );
    // look-alikes and other failures say nothing
    for (const line of [
      "touch: cannot touch '.claudex/a': Read-only file system",
      'cat: .claude/x: No such file or directory',
      'umount: .git: target is busy',
    ]) {
      expect(describeViolation(line, 1, guarded), line).toBeNull();
    }
  });

  it('explains disabled networking only when the command failed', () => {
    const out = 'curl: (6) Could not resolve host: example.com';
    expect(describeViolation(out, 6, ctx())).toContain('blocked by sandbox: network access is disabled');
    expect(describeViolation(out, 0, ctx())).toBeNull();
    expect(
      describeViolation(
        "curl: (7) Failed to connect to 127.0.0.1 port 80 after 0 ms: Couldn't connect to server",
        7,
        ctx(),
      ),
    ).toContain('network access is disabled');
    // with allowed domains, a DNS failure is not the sandbox's doing
    expect(describeViolation(out, 6, ctx({ allowedDomains: ['x.com'] }))).toBeNull();
  });

  it('names the host the proxy refused', () => {
    const denials = [
      {
        host: 'evil.io',
        port: 443,
        reason: 'network access to evil.io:443 is not in the allowed domains',
        at: Date.now(),
      },
    ];
    expect(
      describeViolation(
        'curl: (56) CONNECT tunnel failed, response 403',
        56,
        ctx({ allowedDomains: ['x.com'], denials }),
      ),
    ).toBe('blocked by sandbox: network access to evil.io:443 is not in the allowed domains (allowed domains: x.com)');
    expect(
      describeViolation('curl: (56) CONNECT tunnel failed, response 403', 56, ctx({ allowedDomains: ['x.com'] })),
    ).toContain('network access to a domain that is not allowed (allowed domains: x.com)');
  });

  it('names the host the SOCKS5 proxy refused (reply 0x02), even when the command went on and exited 0', () => {
    const denials = [
      {
        host: '10.0.0.5',
        port: 5432,
        reason: 'network access to 10.0.0.5:5432 is not in the allowed domains',
        at: Date.now(),
      },
    ];
    for (const out of [
      "curl: (97) Can't complete SOCKS5 connection to 10.0.0.5. (2)\ndone",
      'socks.ProxyError: 0x02: Connection not allowed by ruleset',
    ]) {
      expect(describeViolation(out, 0, ctx({ allowedDomains: ['x.com'], denials })), out).toBe(
        'blocked by sandbox: network access to 10.0.0.5:5432 is not in the allowed domains (allowed domains: x.com)',
      );
    }
  });

  it('reports bubblewrap itself failing', () => {
    expect(describeViolation("bwrap: Can't find source path /gone: No such file or directory", 1, ctx())).toBe(
      "blocked by sandbox: the sandbox could not start the command: Can't find source path /gone: No such file or directory",
    );
    expect(describeViolation('echo bwrap: is a word\nbwrap: fine', 0, ctx())).toBeNull();
  });

  it('lists at most three violations', () => {
    const output = ['/a', '/b', '/c', '/d', '/e'].map((p) => `bash: ${p}: Read-only file system`).join('\n');
    const text = describeViolation(output, 1, ctx()) ?? '';
    expect(text.split('\n')).toHaveLength(4);
    expect(text).toContain('(and 2 more)');
  });

  it('finds paths in lines without being fooled by URLs', () => {
    expect(pathsInLine("cp: cannot create regular file '/x/y': Read-only file system", '/h', '/p')).toEqual(['/x/y']);
    expect(pathsInLine('see https://example.com/a/b', '/h', '/p')).toEqual([]);
  });
});
