import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSeatbeltSandbox, seatbeltCommand } from '../../../src/sandbox/seatbelt-sandbox';
import {
  sbplString,
  seatbeltProfile,
  SeatbeltProfileError,
  type SeatbeltPlan,
} from '../../../src/sandbox/seatbelt-profile';
import { readOnlySeatbeltPlan } from '../../../src/sandbox/read-only-profile';
import { bwrapPath, makeWorld, runWrapped, type SandboxWorld } from './support';

// The macOS Seatbelt profile, read back with an S-expression reader that follows SBPL's (TinyScheme's) string
// rules: whatever a path contains, it stays one string inside the rule it was put in.

type Sexp = string | { str: string } | { regex: string } | Sexp[];

/** The regexes (given as SBPL strings) of every `(regex "...")` inside top-level forms `(ACTION OPERATION ...)`. */
function regexFilters(forms: Sexp[], action: string, operation: string): RegExp[] {
  return filterStrings(forms, action, operation, 'regex').map((r) => new RegExp(r));
}

function readSbpl(text: string): Sexp[] {
  let i = 0;
  const readString = (): string => {
    let out = '';
    i++; // opening quote
    for (;;) {
      if (i >= text.length) throw new Error('unterminated string');
      const c = text[i++]!;
      if (c === '"') return out;
      if (c === '\\') {
        const e = text[i++];
        if (e === '\\' || e === '"') out += e;
        else throw new Error(`unexpected escape \\${e}`);
      } else out += c;
    }
  };
  const readForm = (): Sexp => {
    while (/\s/.test(text[i] ?? '')) i++;
    const c = text[i];
    if (c === '(') {
      i++;
      const list: Sexp[] = [];
      for (;;) {
        while (/\s/.test(text[i] ?? '')) i++;
        if (text[i] === ')') {
          i++;
          return list;
        }
        if (i >= text.length) throw new Error('unbalanced (');
        list.push(readForm());
      }
    }
    if (c === ')') throw new Error('unbalanced )');
    if (c === '"') return { str: readString() };
    if (c === '#' && text[i + 1] === '"') {
      i++;
      return { regex: readString() };
    }
    const start = i;
    while (i < text.length && !/[\s()"]/.test(text[i]!)) i++;
    return text.slice(start, i);
  };
  const forms: Sexp[] = [];
  for (;;) {
    while (/\s/.test(text[i] ?? '')) i++;
    if (i >= text.length) return forms;
    forms.push(readForm());
  }
}

/** The string arguments of every `(FILTER "...")` inside top-level forms `(ACTION OPERATION ...)`. */
function filterStrings(forms: Sexp[], action: string, operation: string, filter: string): string[] {
  const out: string[] = [];
  for (const f of forms) {
    if (!Array.isArray(f) || f[0] !== action || f[1] !== operation) continue;
    for (const part of f.slice(2)) {
      if (
        Array.isArray(part) &&
        part[0] === filter &&
        part.length === 2 &&
        typeof part[1] === 'object' &&
        'str' in part[1]
      )
        out.push(part[1].str);
    }
  }
  return out;
}

const plan = (extra: Partial<SeatbeltPlan> = {}): SeatbeltPlan => ({
  writableRoots: ['/Users/u/project', '/Users/u/shared lib'],
  privateTmp: '/private/var/folders/x/T/gatehouse-sandbox-tmp-1',
  protectedPaths: ['/Users/u/.ssh', '/Users/u/Library/Application Support/Gatehouse'],
  pins: ['/Users/u/project/.git'],
  readOnly: ['/Users/u/project/.git/hooks', '/Users/u/project/.git/config'],
  proxyPort: null,
  ...extra,
});

/**
 * A stand-in for sandbox-exec: records the profile, then runs the command unconfined, except under a profile that
 * lets the command write only one folder (the read-only profile), which runs for real with nothing else writable
 * (bubblewrap on Linux, the real sandbox-exec on macOS), so that profile's probe, which checks it, can pass.
 */
function fakeSandboxExec(dir: string): string {
  const fake = path.join(dir, 'fake-sandbox-exec');
  fs.writeFileSync(
    fake,
    [
      '#!/bin/bash',
      '[ "$1" = -p ] || exit 64',
      'profile=$2',
      'printf %s "$profile" > "$(dirname "$0")/last-profile.sb"',
      'shift 2',
      'writes=$(grep "^(allow file-write" <<<"$profile" | grep -o "(subpath" | wc -l)',
      '[ "$writes" -eq 1 ] || exec "$@"',
      '[ -x /usr/bin/sandbox-exec ] && exec /usr/bin/sandbox-exec -p "$profile" "$@"',
      `exec ${bwrapPath ?? 'bwrap'} --unshare-net --ro-bind / / --dev /dev --proc /proc --bind "$TMPDIR" "$TMPDIR" -- "$@"`,
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  return fake;
}
/** Why the wiring tests cannot run here: the read-only profile's probe needs something that really confines. */
const noConfinement =
  bwrapPath === null && !fs.existsSync('/usr/bin/sandbox-exec') ? 'neither bwrap nor sandbox-exec is here' : null;

describe('the Seatbelt profile', () => {
  it('denies by default; writes only in the roots, the private temp dir and devices; secrets denied last', () => {
    const forms = readSbpl(seatbeltProfile(plan()));
    expect(forms[0]).toEqual(['version', '1']);
    expect(forms[1]).toEqual(['deny', 'default']);
    expect(filterStrings(forms, 'allow', 'file-write*', 'subpath')).toEqual([
      '/Users/u/project',
      '/Users/u/shared lib',
      '/private/var/folders/x/T/gatehouse-sandbox-tmp-1',
    ]);
    expect(filterStrings(forms, 'deny', 'file-write*', 'subpath')).toEqual([
      ...plan().readOnly,
      ...plan().protectedPaths,
    ]);
    expect(filterStrings(forms, 'deny', 'file-write*', 'literal')).toEqual(['/Users/u/project/.git']);
    expect(filterStrings(forms, 'deny', 'file-write*', 'regex')).toHaveLength(3); // the guards and the pin, in any case
    expect(filterStrings(forms, 'deny', 'file-read*', 'subpath')).toEqual(plan().protectedPaths);
    // last match wins in SBPL: every narrowing deny comes after the broad allows
    const index = (action: string, op: string) =>
      forms.findIndex((f) => Array.isArray(f) && f[0] === action && f[1] === op);
    expect(index('deny', 'file-read*')).toBeGreaterThan(index('allow', 'file-read*'));
    expect(index('deny', 'file-write*')).toBeGreaterThan(index('allow', 'file-write*'));
  });

  it('guarded paths are unwritable in any case of their names (macOS volumes ignore case), below their writable root only', () => {
    const root = '/Users/u/my.project (1)';
    const forms = readSbpl(
      seatbeltProfile(
        plan({
          writableRoots: [root],
          readOnly: [`${root}/.claude`, `${root}/.git/hooks`, '/elsewhere/.git/config'],
          pins: [`${root}/.git`],
        }),
      ),
    );
    const denied = regexFilters(forms, 'deny', 'file-write*');
    const blocks = (p: string): boolean => denied.some((r) => r.test(p));
    for (const p of [
      `${root}/.claude`,
      `${root}/.CLAUDE/settings.json`,
      `${root}/.Claude/x/y`,
      `${root}/.GIT/Hooks/pre-commit`,
      `${root}/.Git`,
    ])
      expect(blocks(p), p).toBe(true);
    // not other names, not inside a pinned folder, not the root spelled differently (the root is matched as it is)
    for (const p of [
      `${root}/.claudex`,
      `${root}/x.claude`,
      `${root}/.git/objects/ab`,
      `${root}/.git/index`,
      '/Users/u/myXproject (1)/.claude',
      '/Users/u/MY.PROJECT (1)/.claude',
    ]) {
      expect(blocks(p), p).toBe(false);
    }
    expect(filterStrings(forms, 'deny', 'file-write*', 'subpath')).toContain('/elsewhere/.git/config'); // exact only: not writable anyway
  });

  it('no network at all without a proxy; with one, only its loopback port', () => {
    const networkOf = (p: string) =>
      readSbpl(p).filter((f) => Array.isArray(f) && typeof f[1] === 'string' && f[1].startsWith('network'));
    const noUnix = ['deny', 'network-outbound', ['remote', 'unix-socket']];
    expect(networkOf(seatbeltProfile(plan()))).toEqual([noUnix]);
    expect(networkOf(seatbeltProfile(plan({ proxyPort: 51234 })))).toEqual([
      ['allow', 'network-outbound', ['remote', 'ip', { str: 'localhost:51234' }]],
      noUnix,
    ]);
    expect(() => seatbeltProfile(plan({ proxyPort: 70000 }))).toThrow(SeatbeltProfileError);
  });

  it('denies every unix socket but those the person opened, each by its exact path, quoted like any path', () => {
    const attack = '/Users/u/a.sock")) (allow network-outbound (remote unix-socket)) (("';
    const forms = readSbpl(
      seatbeltProfile(plan({ openSockets: ['/private/tmp/com.apple.launchd.x/Listeners', attack] })),
    );
    const unix = forms.filter((f) => JSON.stringify(f).includes('unix-socket'));
    expect(unix).toEqual([
      ['deny', 'network-outbound', ['remote', 'unix-socket']],
      [
        'allow',
        'network-outbound',
        ['remote', 'unix-socket', ['path-literal', { str: '/private/tmp/com.apple.launchd.x/Listeners' }]],
        ['remote', 'unix-socket', ['path-literal', { str: attack }]],
      ],
    ]);
    // the deny comes after every allowance it narrows, the opened ones after it (the last matching rule wins)
    const heads = forms.map((f) => JSON.stringify(f));
    expect(heads.findIndex((h) => h.includes('"deny","network-outbound"'))).toBe(forms.length - 2);
  });

  it('a path cannot break out of its string: quotes, parentheses, semicolons, backslashes stay data', () => {
    const attacks = [
      '/Users/u/a") (allow file-write* (subpath "/")) ("',
      '/Users/u/b\\") (allow network*) ;',
      '/Users/u/c\\',
      '/Users/u/d\\\\"(deny default)',
      '/Users/u/#"e"',
      "/Users/u/f' ; (allow default)",
    ];
    const plain = readSbpl(seatbeltProfile(plan()));
    for (const attack of attacks) {
      const forms = readSbpl(
        seatbeltProfile(plan({ writableRoots: [attack], protectedPaths: [attack], pins: [], readOnly: [] })),
      );
      expect(forms.length, attack).toBe(plain.length - 2); // the same rules (minus the two guard rules), none added
      expect(filterStrings(forms, 'allow', 'file-write*', 'subpath'), attack).toEqual([attack, plan().privateTmp]);
      expect(filterStrings(forms, 'deny', 'file-read*', 'subpath'), attack).toEqual([attack]);
      const heads = forms.map((f) => (Array.isArray(f) ? `${String(f[0])} ${String(f[1])}` : String(f)));
      expect(
        heads.filter((h) => h === 'allow default' || h === 'allow network*'),
        attack,
      ).toEqual([]);
    }
  });

  it('hides what a Read deny rule denies: a folder as a subpath, a file as a literal, neither readable nor writable, quoted like any path', () => {
    const attack = '/Users/u/project/se"crets") (allow file-read* (subpath "/")) ("';
    const hiddenPaths = [
      { path: attack, isDirectory: true },
      { path: '/Users/u/project/.env', isDirectory: false },
    ];
    const forms = readSbpl(seatbeltProfile(plan({ hiddenPaths })));
    expect(forms.length).toBe(readSbpl(seatbeltProfile(plan())).length + 2);
    for (const op of ['file-read*', 'file-write*']) {
      expect(filterStrings(forms, 'deny', op, 'subpath')).toContain(attack);
      expect(filterStrings(forms, 'deny', op, 'literal')).toContain('/Users/u/project/.env');
    }
    // after the broad allow of reads, so it wins
    const last = forms
      .map((f) => (Array.isArray(f) ? `${String(f[0])} ${String(f[1])}` : ''))
      .lastIndexOf('deny file-read*');
    expect(last).toBeGreaterThan(forms.findIndex((f) => Array.isArray(f) && f[0] === 'allow' && f[1] === 'file-read*'));
    expect(filterStrings(forms, 'allow', 'file-read*', 'subpath')).toEqual([]);
    expect(() =>
      seatbeltProfile(plan({ hiddenPaths: [{ path: '/Users/u/x\n(allow default)', isDirectory: false }] })),
    ).toThrow(SeatbeltProfileError);
  });

  it('refuses control characters (a newline could not be held safely), with the path in the message', () => {
    for (const bad of ['/Users/u/x\n(allow default)', '/Users/u/nul\u0000', '/Users/u/cr\r', '/Users/u/del\u007f']) {
      expect(() => sbplString(bad)).toThrow(SeatbeltProfileError);
      expect(() => seatbeltProfile(plan({ writableRoots: [bad] }))).toThrow(/control character/);
      expect(() => seatbeltProfile(plan({ protectedPaths: [bad] }))).toThrow(JSON.stringify(bad).slice(1, 10));
    }
  });

  it('sandbox-exec gets the profile and the command, nothing else', () => {
    const w = seatbeltCommand('/usr/bin/sandbox-exec', plan(), 'npm test', { PATH: '/bin' }, '/Users/u/project');
    expect(w.file).toBe('/usr/bin/sandbox-exec');
    expect(w.args[0]).toBe('-p');
    expect(w.args[1]).toBe(seatbeltProfile(plan()));
    expect(w.args.slice(2)).toEqual(['bash', '-c', 'npm test']);
  });
});

describe('the Seatbelt set-up (wiring only, off macOS: a stand-in sandbox-exec that runs the command unconfined)', () => {
  let world: SandboxWorld | null = null;
  afterEach(() => {
    world?.remove();
    world = null;
  });

  it('no sandbox-exec: unavailable, with the reason', async () => {
    world = makeWorld();
    const s = await createSeatbeltSandbox(
      world.config({ sandboxExecPath: path.join(world.root, 'no-such-sandbox-exec') }),
    );
    expect(s).toEqual({
      kind: 'unavailable',
      reason: `sandbox-exec was not found at ${path.join(world.root, 'no-such-sandbox-exec')}`,
    });
  });

  const probes =
    'probes, hands over the profile, a private TMPDIR and the proxy port; a project path with a newline is unavailable';
  it.skipIf(noConfinement !== null)(probes, async () => {
    world = makeWorld();
    const fake = fakeSandboxExec(world.root);
    const s = await createSeatbeltSandbox(world.config({ sandboxExecPath: fake, allowedDomains: ['example.com'] }));
    if (s.kind !== 'sandbox') throw new Error(s.reason);
    try {
      expect(s.mechanism).toBe('seatbelt');
      const r = await runWrapped(await s.wrap('echo "tmp=$TMPDIR proxy=$ALL_PROXY"'));
      const tmp = /tmp=(\S+)/.exec(r.output)?.[1] ?? '';
      expect(fs.statSync(tmp).isDirectory()).toBe(true);
      expect(r.output).toMatch(/proxy=socks5h:\/\/127\.0\.0\.1:\d+/);
      const port = /127\.0\.0\.1:(\d+)/.exec(r.output)?.[1];
      const profile = fs.readFileSync(path.join(world.root, 'last-profile.sb'), 'utf8');
      expect(profile).toContain(`(remote ip "localhost:${port}")`);
      expect(profile).toContain(`(subpath ${JSON.stringify(fs.realpathSync(world.project))})`);
      expect(s.describeViolation(`touch: ${world.outside}/x: Operation not permitted`, 1)).toBe(
        `blocked by sandbox: write outside the project: ${world.outside}/x`,
      );
      expect(s.describeViolation(`touch: ${tmp}/x: Operation not permitted`, 1)).toBeNull();
    } finally {
      await s.dispose();
    }
    const odd = path.join(world.root, 'odd\nproject');
    fs.mkdirSync(odd);
    const refused = await createSeatbeltSandbox(world.config({ sandboxExecPath: fake, projectRoot: odd }));
    expect(refused.kind).toBe('unavailable');
    expect(refused.kind === 'unavailable' ? refused.reason : '').toContain('control character');
  });
});

describe('the Seatbelt read-only profile', () => {
  const tmp = '/private/var/folders/x/T/gatehouse-sandbox-tmp-2-abcdef';

  it('writes nowhere but its own temp folder and the devices: no root, not the workspace temp dir, no network', () => {
    const workspace = plan({ proxyPort: 51234 });
    const text = seatbeltProfile(readOnlySeatbeltPlan(workspace, tmp));
    const forms = readSbpl(text);
    expect(forms[1]).toEqual(['deny', 'default']);
    expect(filterStrings(forms, 'allow', 'file-write*', 'subpath')).toEqual([tmp]);
    expect(filterStrings(forms, 'allow', 'file-write*', 'regex')).toEqual([]);
    const writable = filterStrings(forms, 'allow', 'file-write*', 'literal');
    expect(writable.every((p) => p.startsWith('/dev/'))).toBe(true);
    expect(text).not.toContain(workspace.privateTmp);
    expect(text).not.toMatch(/\(allow network/);
    // The secrets stay unreadable, exactly as in the workspace profile.
    expect(filterStrings(forms, 'deny', 'file-read*', 'subpath')).toEqual(workspace.protectedPaths);
  });

  it("keeps the workspace profile's Read-deny masks", () => {
    const hiddenPaths = [
      { path: '/Users/u/project/secrets', isDirectory: true },
      { path: '/Users/u/project/.env', isDirectory: false },
    ];
    const forms = readSbpl(seatbeltProfile(readOnlySeatbeltPlan(plan({ hiddenPaths }), tmp)));
    expect(filterStrings(forms, 'deny', 'file-read*', 'subpath')).toContain('/Users/u/project/secrets');
    expect(filterStrings(forms, 'deny', 'file-read*', 'literal')).toContain('/Users/u/project/.env');
  });
});

describe.skipIf(noConfinement !== null)('the Seatbelt read-only wiring (a stand-in sandbox-exec)', () => {
  let world: SandboxWorld | null = null;
  afterEach(() => {
    world?.remove();
    world = null;
  });

  it('gives each command a temp folder of its own, removed after it, and the read-only profile', async () => {
    world = makeWorld();
    const fake = fakeSandboxExec(world.root);
    const s = await createSeatbeltSandbox(world.config({ sandboxExecPath: fake, allowedDomains: ['example.com'] }));
    if (s.kind !== 'sandbox') throw new Error(s.reason);
    try {
      const workspaceTmp = /tmp=(\S+)/.exec((await runWrapped(await s.wrap('echo "tmp=$TMPDIR"'))).output)?.[1];
      const first = await runWrapped(
        await s.wrapReadOnly('echo "tmp=$TMPDIR proxy=${ALL_PROXY-none} git=$GIT_OPTIONAL_LOCKS"'),
      );
      const profile = fs.readFileSync(path.join(world.root, 'last-profile.sb'), 'utf8');
      const tmp = /tmp=(\S+)/.exec(first.output)?.[1] ?? '';
      expect(first.output).toContain('proxy=none git=0');
      expect(tmp).not.toBe(workspaceTmp);
      expect(fs.existsSync(tmp)).toBe(false); // removed once the command ended
      const forms = readSbpl(profile);
      expect(filterStrings(forms, 'allow', 'file-write*', 'subpath')).toEqual([tmp]);
      expect(profile).not.toContain(fs.realpathSync(world.project) + '"');
      expect(profile).not.toMatch(/\(allow network/);
      const second = await runWrapped(await s.wrapReadOnly('echo "tmp=$TMPDIR"'));
      expect(/tmp=(\S+)/.exec(second.output)?.[1]).not.toBe(tmp);
      expect(s.describeViolation(`touch: ${world.project}/x: Operation not permitted`, 1, 'read-only')).toMatch(
        /^blocked by sandbox: write to .*\/x: the command ran in the read-only sandbox/,
      );
    } finally {
      await s.dispose();
    }
  });
});
