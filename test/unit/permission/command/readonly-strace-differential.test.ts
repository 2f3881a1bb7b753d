import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPermissionEngine } from '../../../../src/main/core/permission/create-engine';
import { fixedTrust } from '../../../../src/main/core/permission/trust-oracle';
import { type PermissionEngine } from '../../../../src/main/core/permission/engine';
import { READ_ONLY } from '../../../../src/main/core/shell-analysis/read-only/read-only-table';
import { findOnPath } from '../../../../src/sandbox/find-binary';
import { AVOIDED_SUMMARY, OPTION_POOL, scripts, type FixturePaths, type GenContext } from './readonly-script-gen';
import { landing, readTrace, TRACED_CALLS, type TraceEvent } from './strace-trace';

/**
 * Differential test of the read-only shortcut against the real bash: random scripts (readonly-script-gen.ts) go
 * through the real PermissionEngine as `run_command` in default mode in a trusted project; each one it allows as a
 * read-only command then runs under bash in that same fixture inside bubblewrap, with the whole file system
 * read-only, under `strace -ff`. It must have run only programs of the read-only set, opened nothing for writing
 * (but /dev/null and the terminal), tried to change nothing, opened nothing outside the project but the system
 * files listed in SYSTEM_READS, and touched no socket.
 *
 * Reproduce a run: GATEHOUSE_DIFF_SEED=<seed printed below> DIFF_RUNS=<n> npx vitest run <this file>.
 * Triage (each replaces the property run): DIFF_SCRIPT='a\n---\nb' prints the decision and the misdeeds of each
 * script; DIFF_SHRINK='script' shrinks a failing script to a smallest one that still fails; DIFF_COLLECT=<n> lists
 * every failing script among n samples of the seed without stopping (with DIFF_SHOW=1, every script that ran).
 */

const RUNS = Number(process.env.DIFF_RUNS ?? 50);
const SEED = Number(process.env.GATEHOUSE_DIFF_SEED ?? Math.floor(Math.random() * 2 ** 31));

const bwrap = await findOnPath('bwrap');
const strace = await findOnPath('strace');

/** Programs of the table left out: their start-up is an interpreter's (node, npm, python), or they only wait. */
const LEFT_OUT = new Set(['node', 'npm', 'python', 'python3', 'sleep']);
/** Read-only programs outside the table's map (they have their own rules): find. git writes its index on status (optional locks) and reads the user's config: not run here. */
const EXTRA_PROGRAMS = ['find'];
const PROGRAMS = [...READ_ONLY.keys(), ...EXTRA_PROGRAMS].filter((p) => !LEFT_OUT.has(p));
/** Shell builtins (no program runs for them). */
const BUILTINS = new Set([
  'echo',
  'printf',
  'true',
  'false',
  ':',
  'pwd',
  'test',
  '[',
  'type',
  'command',
  'cd',
  'pushd',
]);
const SYSTEM_BIN = ['/usr/bin', '/bin', '/usr/local/bin'];
/**
 * Programs that run only what the engine already judged: a shell given literal code (`bash -c 'ls'`, a quoted
 * here-document fed to `sh`) and the wrappers that change nothing the read-only verdict depends on (`nice`,
 * `timeout`, `env -C DIR`). Not in the read-only table, but in the read-only set through the code they run.
 */
const RUNNERS = ['bash', 'sh', 'dash', 'env', 'nice', 'timeout', 'stdbuf', 'setsid', 'ionice', 'nohup'];

/**
 * Files outside the project that the dynamic loader, libc and the listed programs open on their own, whatever the
 * script says. Kept explicit and narrow: a new entry needs a reason.
 */
const SYSTEM_READS: { re: RegExp; why: string }[] = [
  { re: /^\/etc\/ld\.so\.(cache|preload)$/, why: 'the dynamic loader' },
  {
    re: /^\/(usr\/)?lib(64)?\/([\w-]+-linux-gnu\/)?(glibc-hwcaps\/[\w-]+\/)?lib[\w+.-]*\.so[\d.]*$/,
    why: 'shared libraries',
  },
  { re: /^\/usr\/lib\/locale\/|^\/usr\/share\/locale\/locale\.alias$|^\/etc\/locale\.alias$/, why: 'locale data' },
  {
    re: /^\/usr\/lib\/[\w-]+-linux-gnu\/gconv\/gconv-modules(\.cache|\.d\/.*)?$/,
    why: 'character set conversion (iconv)',
  },
  { re: /^\/etc\/(passwd|group|nsswitch\.conf)$/, why: 'user and group names (ls -l, id, whoami, stat)' },
  { re: /^\/etc\/localtime$|^\/usr\/share\/zoneinfo\//, why: 'the time zone (date, ls -l)' },
  { re: /^\/proc\/(self|\d+)\/maps$/, why: 'the memory map (PCRE2 JIT in grep, Rust start-up in rg)' },
  {
    re: /^\/proc\/(self|\d+)\/(mountinfo|mounts|stat|status|cgroup)$|^\/proc\/(filesystems|meminfo|stat)$|^\/etc\/mtab$/,
    why: 'mounts and process limits (df, sort, nproc)',
  },
  { re: /^\/sys\/devices\/system\/cpu\/(online|possible)$|^\/sys\/fs\/cgroup\//, why: 'CPU count (nproc, sort)' },
  {
    re: /^\/usr\/share\/(misc|file)\/magic(\.mgc)?$|^\/etc\/magic(\.mgc)?$|^\/usr\/lib\/file\/magic\.mgc$/,
    why: "file's magic database",
  },
  {
    re: /^\/(etc|run|run\/host|run\/systemd|usr\/local\/lib|usr\/lib|lib)\/userdb(\/[^/]+\.(user|group))?\/?$/,
    why: 'user records (nss-systemd userdb: id, ls -l)',
  },
  { re: /^\/proc\/sys\/kernel\/ngroups_max$/, why: 'the group limit (id)' },
  { re: /^\/(usr\/share|lib|usr\/lib|etc)\/terminfo\//, why: 'the terminal description (less)' },
  { re: /^\/dev\/(null|tty|zero|urandom)$/, why: 'devices' },
  { re: /^\/usr\/(libexec|lib)\/coreutils\/libstdbuf\.so$/, why: 'the library stdbuf preloads' },
];
/** Local sockets libc itself asks (user names through the name service cache daemon). */
const SYSTEM_SOCKETS = /sun_path="\/(var\/)?run\/nscd\/socket"/;
/**
 * Configuration a program reads outside the project by design, whatever the script says (HOME is the fixture's
 * home): ripgrep the user's git config (for core.excludesFile), less its key bindings and history.
 */
function programConfig(home: string): { re: RegExp; why: string }[] {
  const h = home.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return [
    {
      re: new RegExp(`^${h}/(\\.gitconfig|\\.config/git/(config|ignore|attributes))$`),
      why: "ripgrep: the user's git config",
    },
    {
      re: new RegExp(
        `^(${h}/(\\.less|\\.lesskey|\\.lesshst|\\.config/lesskey)|/etc/sysless(key)?|/usr/bin/\\.sysless)$`,
      ),
      why: 'less: key bindings and history',
    },
    {
      re: new RegExp(
        `^(/etc/profile|/etc/profile\\.d(/[\\w.-]+)?|/etc/bash\\.bashrc|${h}/\\.(bash_profile|bash_login|profile|bashrc))$`,
      ),
      why: "a login shell (`bash -lc`): the system's and the user's profile",
    },
  ];
}
/** Writable without harm: the engine treats these redirect targets as free. */
const FREE_WRITES = new Set(['/dev/null', '/dev/tty', '/dev/stdout', '/dev/stderr']);
/** Private temp files (created exclusively in $TMPDIR, the sandbox's own /tmp): tac and sort buffer unseekable input there. */
const TEMP_FILE = /^\/tmp\/(tac|sort)[A-Za-z0-9]{6}$/;

function skipReason(): string | null {
  if (process.platform !== 'linux') return `not Linux (${process.platform}): bubblewrap and strace are Linux tools`;
  if (bwrap === null) return 'bwrap is not installed (Debian package "bubblewrap")';
  if (strace === null) return 'strace is not installed (Debian package "strace")';
  const probe = spawnSync(
    bwrap,
    [
      '--unshare-all',
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--',
      strace,
      '-qq',
      '-e',
      'trace=execve',
      '-o',
      '/dev/null',
      'true',
    ],
    { encoding: 'utf8', timeout: 10_000 },
  );
  if (probe.status !== 0)
    return `strace does not work inside bubblewrap here: ${(probe.stderr || String(probe.error ?? probe.status)).trim().split('\n')[0]}`;
  return null;
}
const SKIP = skipReason();
if (SKIP !== null) console.warn(`readonly-strace-differential skipped: ${SKIP}`);

let root: string;
let fixture: FixturePaths;
let traceRoot: string;
let engine: PermissionEngine;
let installed: string[];
let gen: GenContext;

function write(rel: string, text: string): void {
  const file = path.join(root, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

beforeAll(async () => {
  if (SKIP !== null) return;
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-ro-strace-')));
  fixture = { project: path.join(root, 'project'), outside: path.join(root, 'outside'), home: path.join(root, 'home') };
  write('project/src/a.ts', 'export const a = 1;\n');
  write('project/src/b.txt', 'b\n');
  write('project/docs/readme.md', '# readme\n');
  write('project/sub/deep/file.txt', 'deep\n');
  write('project/my file.txt', 'spaced\n');
  write('project/notes.md', 'notes\n');
  write('project/-n', 'dash\n');
  write('outside/secret.txt', 'OUTSIDE-SECRET\n');
  write('home/.ssh/id_rsa', 'PRIVATE\n');
  write('home/.bashrc', 'echo rc\n');
  // the repository's own programs and scripts: never read-only, whatever they are called
  for (const prog of ['project/rg', 'project/bin/ls', 'project/bin/cat'])
    write(prog, '#!/bin/sh\n/bin/cat ../outside/secret.txt\n');
  for (const prog of ['project/rg', 'project/bin/ls', 'project/bin/cat']) fs.chmodSync(path.join(root, prog), 0o755);
  write('project/env.sh', 'cat ../outside/secret.txt\n');
  fs.symlinkSync('../outside', path.join(fixture.project, 'link-out'));
  fs.symlinkSync('../outside/secret.txt', path.join(fixture.project, 'link-file'));
  fs.symlinkSync('src', path.join(fixture.project, 'link-in'));
  fs.mkdirSync(path.join(root, 'config'));
  traceRoot = path.join(root, 'traces');
  fs.mkdirSync(traceRoot);
  engine = await createPermissionEngine({
    projectRoot: fixture.project,
    configDir: path.join(root, 'config'),
    env: {
      PATH: '/usr/bin:/bin',
      HOME: fixture.home,
      GATEHOUSE_HOME: path.join(root, 'config'),
      GATEHOUSE_POLICY: path.join(root, 'no-policy.yaml'),
    },
    trust: fixedTrust(true),
    mode: 'default',
    audit: null,
  });
  // the open sets' pieces (readonly-script-gen-open-sets.ts): files that make a program run code if it reads them
  write('project/rg.conf', '--pre=./pre.sh\n');
  write('project/pre.sh', '#!/bin/sh\n/bin/cat ../outside/secret.txt\n');
  fs.chmodSync(path.join(root, 'project/pre.sh'), 0o755);
  write('project/.bash_profile', 'cat ../outside/secret.txt\n');
  write('project/.profile', 'cat ../outside/secret.txt\n');
  installed = PROGRAMS.filter((p) => BUILTINS.has(p) || SYSTEM_BIN.some((d) => fs.existsSync(path.join(d, p))));
  gen = {
    fixture,
    programs: installed,
    safe: new Map(
      await Promise.all(
        installed.map(
          async (p) => [p, await filterAsync(OPTION_POOL, (o) => readOnlyAllowed(`${p} ${o} notes.md`))] as const,
        ),
      ),
    ),
    // operands the engine does not judge as paths: a path outside stays read-only (with some accepted option, for `command -v`)
    textOperands: new Set(
      await filterAsync(installed, async (p) => {
        for (const o of ['', '-v', '-V', '-n'])
          if (await readOnlyAllowed(`${p} ${o} ../outside/secret.txt`)) return true;
        return false;
      }),
    ),
  };
});

afterAll(() => {
  if (root !== undefined) fs.rmSync(root, { recursive: true, force: true });
});

async function filterAsync<T>(items: readonly T[], keep: (item: T) => Promise<boolean>): Promise<T[]> {
  const kept: T[] = [];
  for (const item of items) if (await keep(item)) kept.push(item);
  return kept;
}

async function readOnlyAllowed(script: string): Promise<boolean> {
  const d = await engine.decide({ tool: 'run_command', input: { command: script } });
  return d.decision === 'allow' && d.source === 'mode' && /read-only command/.test(d.reason);
}

/** Runs `script` with bash under strace in bubblewrap (everything read-only but the trace folder). */
function traced(script: string): { events: TraceEvent[]; status: string } {
  const dir = fs.mkdtempSync(path.join(traceRoot, 'run-'));
  try {
    const r = spawnSync(
      bwrap as string,
      [
        '--die-with-parent',
        '--unshare-all',
        '--ro-bind',
        '/',
        '/',
        '--dev',
        '/dev',
        '--proc',
        '/proc',
        '--bind',
        dir,
        dir,
        '--chdir',
        fixture.project,
        '--',
        strace as string,
        '-ff',
        '-qq',
        '-y',
        '-s',
        '65535',
        '-e',
        `trace=${TRACED_CALLS.map((c) => `?${c}`).join(',')}`,
        '-e',
        'signal=none',
        '-o',
        path.join(dir, 't'),
        '--',
        'bash',
        '-c',
        script,
      ],
      {
        env: { PATH: '/usr/bin:/bin', HOME: fixture.home, LANG: 'C' },
        stdio: ['ignore', 'ignore', 'pipe'],
        timeout: 15_000,
        killSignal: 'SIGKILL',
        encoding: 'utf8',
      },
    );
    const stderr = (r.stderr ?? '').trim().split('\n').slice(-3).join(' / ');
    return {
      events: readTrace(dir, 't'),
      status: `${r.error ? `error ${r.error.message}` : `exit ${r.status ?? r.signal}`}${stderr ? `; stderr: ${stderr}` : ''}`,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const inside = (p: string, dir: string): boolean => p === dir || p.startsWith(`${dir}/`);

/** What the trace shows that a read-only command must not do (empty: nothing). */
function misdeeds(events: TraceEvent[]): string[] {
  const out: string[] = [];
  const programs = new Set([...installed, ...RUNNERS]);
  let first = true;
  for (const e of events) {
    if (e.kind === 'exec') {
      if (!e.ok) continue;
      const isBash = first && e.file.endsWith('/bash');
      first = false;
      const named =
        SYSTEM_BIN.some((d) => e.file === path.join(d, path.basename(e.file))) && programs.has(path.basename(e.file));
      if (!isBash && !named) out.push(`ran ${e.file}: ${e.line}`);
    } else if (e.kind === 'change') out.push(`changed the file system: ${e.line}`);
    else if (e.kind === 'socket') {
      if (!SYSTEM_SOCKETS.test(e.line)) out.push(`used a socket: ${e.line}`);
    } else {
      // a failed open names where it would have landed (a last link is not followed with O_NOFOLLOW)
      const where =
        e.real ??
        (e.noFollow ? path.join(landing(path.dirname(e.requested)), path.basename(e.requested)) : landing(e.requested));
      if (e.write) {
        const temp = TEMP_FILE.test(e.requested) && /O_CREAT\|O_EXCL/.test(e.line);
        if (!FREE_WRITES.has(e.requested) && !FREE_WRITES.has(where) && !temp)
          out.push(`opened for writing ${where}: ${e.line}`);
        continue;
      }
      if (e.handleOnly) continue;
      // a descriptor of the command itself reopened (`sh /dev/stdin <<< 'ls'`): a pipe or here-document, not a file
      if (e.real !== null && /^pipe:\[\d+\]$|^\/tmp\/sh-thd[.\w-]* \(deleted\)$/.test(e.real)) continue;
      if (inside(where, fixture.project)) continue;
      // a program that is a script, read by its interpreter (`which`)
      const bin = [e.requested, where].some(
        (p) => SYSTEM_BIN.includes(path.dirname(p)) && programs.has(path.basename(p)),
      );
      const known =
        SYSTEM_READS.some((s) => s.re.test(where)) || programConfig(fixture.home).some((c) => c.re.test(where));
      if (!bin && !known) out.push(`read outside the project ${where}: ${e.line}`);
    }
  }
  return out;
}

describe.skipIf(SKIP !== null)(
  `read-only commands do only read-only things under real bash (bubblewrap + strace${SKIP ? `; skipped: ${SKIP}` : ''})`,
  () => {
    it.skipIf(process.env.DIFF_SCRIPT === undefined)(
      '(triage) one script from DIFF_SCRIPT: the decision and what it did',
      async () => {
        for (const script of (process.env.DIFF_SCRIPT ?? '').split('\n---\n')) {
          const d = await engine.decide({ tool: 'run_command', input: { command: script } });
          const { events, status } = traced(script);
          console.log(
            `${JSON.stringify(script)}: ${d.decision} (${d.source}: ${d.reason}); under bash (${status}):\n  ${misdeeds(events).join('\n  ') || 'nothing wrong'}`,
          );
        }
      },
    );

    it.skipIf(process.env.DIFF_SHRINK === undefined)(
      '(triage) shrinks DIFF_SHRINK to a smallest script that still fails',
      async () => {
        const fails = async (script: string): Promise<boolean> =>
          (await readOnlyAllowed(script)) && misdeeds(traced(script).events).length > 0;
        let current = process.env.DIFF_SHRINK ?? '';
        if (!(await fails(current))) return void console.log('it does not fail');
        for (let size = Math.ceil(current.length / 2); size >= 1; size = size === 1 ? 0 : Math.ceil(size / 2)) {
          for (let i = 0; i + size <= current.length;) {
            const candidate = current.slice(0, i) + current.slice(i + size);
            if (await fails(candidate)) current = candidate;
            else i += size;
          }
        }
        console.log(`smallest: ${JSON.stringify(current)}\n  ${misdeeds(traced(current).events).join('\n  ')}`);
      },
      600_000,
    );

    it.skipIf(process.env.DIFF_COLLECT === undefined)(
      '(triage) lists every failing script of a sample without stopping',
      async () => {
        const failing = new Map<string, string>();
        let ran = 0;
        for (const script of fc.sample(scripts(gen), { seed: SEED, numRuns: Number(process.env.DIFF_COLLECT) })) {
          if (!(await readOnlyAllowed(script))) continue;
          ran++;
          if (process.env.DIFF_SHOW !== undefined) console.log(`ran: ${JSON.stringify(script)}`);
          const bad = misdeeds(traced(script).events);
          if (bad.length > 0) failing.set(script, bad.join(' | ').slice(0, 400));
        }
        console.log(
          `${ran} read-only of ${process.env.DIFF_COLLECT}\n${[...failing].map(([s, b]) => `${JSON.stringify(s)}\n    ${b}`).join('\n')}`,
        );
      },
      600_000,
    );

    it.skipIf(['DIFF_COLLECT', 'DIFF_SCRIPT', 'DIFF_SHRINK'].some((v) => process.env[v] !== undefined))(
      'every generated script the engine calls read-only runs only read-only programs, writes nothing and reads only the project',
      async () => {
        console.log(
          `readonly-strace-differential: seed ${SEED}, ${RUNS} runs (reproduce: GATEHOUSE_DIFF_SEED=${SEED} DIFF_RUNS=${RUNS}); constructs avoided for open findings: ${AVOIDED_SUMMARY.join(', ') || 'none'}`,
        );
        let generated = 0;
        let executed = 0;
        await fc.assert(
          fc.asyncProperty(scripts(gen), async (script) => {
            generated++;
            fc.pre(await readOnlyAllowed(script));
            executed++;
            let { events, status } = traced(script);
            if (events.length === 0) ({ events, status } = traced(script)); // bubblewrap could not start (a loaded machine): once more
            expect(events.length, `no trace for ${JSON.stringify(script)} (${status})`).toBeGreaterThan(0);
            const bad = misdeeds(events);
            expect(
              bad,
              `the engine calls ${JSON.stringify(script)} read-only, but under bash (${status}) it:\n${bad.join('\n')}`,
            ).toEqual([]);
          }),
          { seed: SEED, numRuns: RUNS, maxSkipsPerRun: 200 },
        );
        console.log(
          `readonly-strace-differential: ${generated} scripts generated, ${executed} called read-only and run under strace`,
        );
      },
      240_000,
    );
  },
);
