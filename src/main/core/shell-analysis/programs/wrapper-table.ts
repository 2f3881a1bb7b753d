/**
 * The wrappers the analyser looks through (wrappers.ts): programs that run another program given as the rest of
 * their arguments. A closed table; for each, the options it takes (an option not listed makes the command
 * unreadable rather than guessing where the wrapped program starts) and what it does besides running the program.
 *
 * The first group (`command`, `nice`, `timeout`, ...) changes nothing the read-only verdict depends on: a read-only
 * program stays read-only through them. The others (`runner`) are programs outside the read-only set: the deny
 * list and the rules see the program they run, and the command is never read-only (contract "Assurance: Options
 * that take a command").
 */
export interface WrapperSpec {
  /** Short flags without a value. */
  short?: string;
  /** Short flags that take a value (attached `-n5` or next word). */
  shortArg?: string;
  /** Short flags whose value is optional and only ever attached (`xargs -i{}`). */
  shortOptional?: string;
  long?: string[];
  longArg?: string[];
  /** `nice -10`. */
  numericShort?: boolean;
  /** Operands before the command (`timeout DURATION`, `taskset MASK`, `flock FILE`). */
  operands?: number;
  /** Flags that mean this is not a wrapper call at all (`command -v x` only looks x up, `taskset -p` a process). */
  notWrapper?: string;
  notWrapperLong?: string[];
  /** Flags we refuse (they write files or split strings into commands). */
  refuse?: string;
  refuseLong?: string[];
  /** A program outside the read-only set: what it runs is never read-only. */
  runner?: boolean;
  /** Options (short letter or long name) whose value is the directory the program runs in (`unshare -w DIR`). */
  directory?: string[];
  /** Options after which the directory is unknown (`unshare -R` changes the root, `nsenter -w` the target's). */
  lostDirectory?: string[];
  /** Options whose value is a file the wrapper creates or writes (`strace -o FILE`). */
  creates?: string[];
  /** The first operand is a file the wrapper creates (`flock FILE CMD`). */
  createsOperand?: boolean;
  /** The first operand is a new root: where the program runs is unknown (`chroot DIR CMD`). */
  rootOperand?: boolean;
  /** With no command, the wrapper starts a shell that reads its input (`unshare`, `chroot`, `fakeroot`). */
  shellWhenAlone?: boolean;
  /** `flock FILE -c CODE`: after the operands, this word introduces shell code instead of a command. */
  codeAfterOperands?: string[];
  /** The words after the operands are shell code (`sg GROUP CMD...`), or only with one of these flags (`entr -s`). */
  restIsCode?: true | string;
  /** Only a wrapper when its first operand is this word (`direnv exec DIR CMD`). */
  leadingWord?: string;
  /** Any `--name` or `--name=value` option (valgrind's hundreds of them: values are always attached). */
  anyLong?: true;
}

export const WRAPPERS: Record<string, WrapperSpec> = {
  command: { short: 'p', notWrapper: 'vV' },
  builtin: {},
  exec: { short: 'cl', shortArg: 'a' },
  nice: { shortArg: 'n', longArg: ['--adjustment'], numericShort: true },
  nohup: {},
  time: {
    short: 'pvaq',
    shortArg: 'f',
    refuse: 'o',
    long: ['--portability', '--verbose', '--append', '--quiet'],
    longArg: ['--format'],
    refuseLong: ['--output'],
  },
  timeout: {
    short: 'v',
    shortArg: 'sk',
    long: ['--preserve-status', '--foreground', '--verbose'],
    longArg: ['--signal', '--kill-after'],
    operands: 1,
  },
  stdbuf: { shortArg: 'ioe', longArg: ['--input', '--output', '--error'] },
  xargs: {
    short: '0prtxo',
    shortArg: 'IEsLnPda',
    shortOptional: 'ile',
    long: [
      '--null',
      '--no-run-if-empty',
      '--verbose',
      '--interactive',
      '--exit',
      '--open-tty',
      '--show-limits',
      '--replace',
      '--max-lines',
      '--eof',
    ],
    longArg: ['--arg-file', '--delimiter', '--max-args', '--max-procs', '--max-chars', '--process-slot-var'],
  },
  setsid: { short: 'cfw', long: ['--ctty', '--fork', '--wait'] },
  ionice: { short: 't', shortArg: 'cn', notWrapper: 'pPu' },
  coproc: {},
  busybox: {},
  toybox: {},

  // Programs outside the read-only set that run a command given as their remaining arguments.
  taskset: {
    runner: true,
    short: 'ac',
    long: ['--all-tasks', '--cpu-list'],
    notWrapper: 'phV',
    notWrapperLong: ['--pid', '--help', '--version'],
    operands: 1,
  },
  chrt: {
    runner: true,
    short: 'bdfiorRav',
    shortArg: 'TPD',
    long: [
      '--batch',
      '--deadline',
      '--fifo',
      '--idle',
      '--other',
      '--rr',
      '--reset-on-fork',
      '--all-tasks',
      '--verbose',
    ],
    longArg: ['--sched-runtime', '--sched-period', '--sched-deadline'],
    notWrapper: 'pmhV',
    notWrapperLong: ['--pid', '--max', '--help', '--version'],
    operands: 1,
  },
  flock: {
    runner: true,
    short: 'sxenuoFv',
    shortArg: 'wE',
    long: ['--shared', '--exclusive', '--nonblock', '--unlock', '--close', '--no-fork', '--verbose'],
    longArg: ['--timeout', '--wait', '--conflict-exit-code'],
    notWrapper: 'hV',
    operands: 1,
    createsOperand: true,
    codeAfterOperands: ['-c', '--command'],
  },
  unshare: {
    runner: true,
    short: 'muinpUCTfrc',
    shortArg: 'RwSGl',
    long: [
      '--mount',
      '--uts',
      '--ipc',
      '--net',
      '--pid',
      '--user',
      '--cgroup',
      '--time',
      '--fork',
      '--map-root-user',
      '--map-current-user',
      '--map-auto',
      '--keep-caps',
      '--mount-proc',
      '--kill-child',
      '--mount-binfmt',
    ],
    longArg: [
      '--map-user',
      '--map-group',
      '--map-users',
      '--map-groups',
      '--owner',
      '--propagation',
      '--setgroups',
      '--root',
      '--wd',
      '--setuid',
      '--setgid',
      '--monotonic',
      '--boottime',
      '--load-interp',
    ],
    notWrapper: 'hV',
    directory: ['w', '--wd'],
    lostDirectory: ['R', '--root'],
    shellWhenAlone: true,
  },
  nsenter: {
    runner: true,
    short: 'aFZe',
    shortArg: 'tSG',
    shortOptional: 'muinpUCTrw',
    // the namespace options take an optional attached file (`--mount=/proc/1/ns/mnt`)
    long: [
      '--all',
      '--preserve-credentials',
      '--no-fork',
      '--follow-context',
      '--env',
      '--mount',
      '--uts',
      '--ipc',
      '--net',
      '--pid',
      '--user',
      '--cgroup',
      '--time',
      '--root',
      '--wd',
    ],
    longArg: ['--target', '--setuid', '--setgid', '--user-parent'],
    notWrapper: 'hV',
    lostDirectory: ['r', 'w', '--root', '--wd'],
    shellWhenAlone: true,
  },
  setpriv: {
    runner: true,
    long: ['--clear-groups', '--keep-groups', '--init-groups', '--reset-env', '--no-new-privs', '--nnp'],
    longArg: [
      '--reuid',
      '--regid',
      '--ruid',
      '--euid',
      '--rgid',
      '--egid',
      '--groups',
      '--inh-caps',
      '--ambient-caps',
      '--bounding-set',
      '--securebits',
      '--pdeathsig',
      '--selinux-label',
      '--apparmor-profile',
      '--landlock-access',
      '--landlock-rule',
    ],
    notWrapper: 'dhV',
    notWrapperLong: ['--dump', '--help', '--version'],
  },
  'systemd-run': {
    runner: true,
    short: 'rtPqGdS',
    shortArg: 'upEMH',
    long: [
      '--user',
      '--system',
      '--scope',
      '--remain-after-exit',
      '--send-sighup',
      '--pty',
      '--pipe',
      '--quiet',
      '--collect',
      '--wait',
      '--shell',
      '--same-dir',
      '--no-block',
      '--no-ask-password',
      '--verbose',
      '--expand-environment',
    ],
    longArg: [
      '--unit',
      '--property',
      '--description',
      '--slice',
      '--slice-inherit',
      '--setenv',
      '--working-directory',
      '--uid',
      '--gid',
      '--nice',
      '--machine',
      '--host',
      '--service-type',
      '--on-active',
      '--on-boot',
      '--on-startup',
      '--on-unit-active',
      '--on-unit-inactive',
      '--on-calendar',
      '--path-property',
      '--socket-property',
      '--timer-property',
      '--json',
    ],
    notWrapper: 'hV',
    directory: ['--working-directory'],
  },
  'systemd-inhibit': { runner: true, longArg: ['--what', '--who', '--why', '--mode'], notWrapperLong: ['--list'] },
  chroot: {
    runner: true,
    long: ['--skip-chdir'],
    longArg: ['--userspec', '--groups'],
    operands: 1,
    rootOperand: true,
    shellWhenAlone: true,
  },
  fakeroot: {
    runner: true,
    short: 'u',
    shortArg: 'lbsi',
    long: ['--unknown-is-real'],
    longArg: ['--lib', '--faked'],
    notWrapper: 'hv',
    creates: ['s'],
    shellWhenAlone: true,
  },
  faketime: { runner: true, short: 'mf', longArg: ['--date-prog'], long: ['--exclude-monotonic'], operands: 1 },
  prlimit: {
    runner: true,
    shortOptional: 'bcdefilmnqrstuvxy',
    // every limit takes its value attached (`--nofile=1024`)
    long: [
      '--noheadings',
      '--raw',
      '--verbose',
      '--as',
      '--core',
      '--cpu',
      '--data',
      '--fsize',
      '--locks',
      '--memlock',
      '--msgqueue',
      '--nice',
      '--nofile',
      '--nproc',
      '--rss',
      '--rtprio',
      '--rttime',
      '--sigpending',
      '--stack',
    ],
    longArg: ['--output'],
    notWrapper: 'phV',
    notWrapperLong: ['--pid'],
  },
  caffeinate: { runner: true, short: 'dimsu', shortArg: 'tw' },
  numactl: {
    runner: true,
    short: 'alb',
    shortArg: 'ipmCNPw',
    long: ['--all', '--localalloc', '--balancing', '--huge', '--touch', '--strict'],
    longArg: [
      '--interleave',
      '--preferred',
      '--preferred-many',
      '--membind',
      '--physcpubind',
      '--cpunodebind',
      '--weighted-interleave',
    ],
    notWrapper: 'sHV',
    notWrapperLong: ['--show', '--hardware', '--version'],
  },
  cgexec: { runner: true, shortArg: 'g', long: ['--sticky'], notWrapper: 'h' },
  torsocks: { runner: true, short: 'diq', shortArg: 'upaP', long: ['--isolate', '--quiet', '--debug'] },
  proxychains: { runner: true, short: 'q', shortArg: 'f' },
  proxychains4: { runner: true, short: 'q', shortArg: 'f' },
  'ssh-agent': { runner: true, short: 'cdDs', shortArg: 'aEOPt', notWrapper: 'k' },
  unbuffer: { runner: true, short: 'p' },
  catchsegv: { runner: true },
  'dbus-run-session': { runner: true, longArg: ['--config-file'], refuseLong: ['--dbus-daemon'] },
  'xvfb-run': {
    runner: true,
    short: 'al',
    shortArg: 'nspwef',
    long: ['--auto-servernum', '--listen-tcp'],
    longArg: ['--server-num', '--server-args', '--xauth-protocol', '--wait', '--error-file', '--auth-file'],
    creates: ['e', 'f', '--error-file', '--auth-file'],
  },
  'flatpak-spawn': { runner: true, anyLong: true, directory: ['--directory'] },
  valgrind: { runner: true, short: 'qvh', anyLong: true, creates: ['--log-file', '--xml-file'] },
  ltrace: {
    runner: true,
    short: 'bcCfhiLrStTV',
    shortArg: 'aAeDlnopsuwxEF',
    longArg: ['--output', '--library', '--align', '--indent'],
    long: ['--demangle', '--no-signals'],
    creates: ['o', '--output'],
  },
  // `sg GROUP -c CMD` or `sg GROUP CMD...`: the command is a string run by /bin/sh -c
  sg: { runner: true, operands: 1, codeAfterOperands: ['-c'], restIsCode: true },
  // `entr -s 'CMD'` runs CMD with $SHELL -c; without -s the rest is a program and its arguments
  entr: { runner: true, short: 'acdnprsz', restIsCode: 's' },
  // `direnv exec DIR CMD...` loads DIR's .envrc, then runs CMD
  direnv: { runner: true, leadingWord: 'exec', operands: 2 },
  strace: {
    runner: true,
    short: 'cCdDfFhiknqrtTvVwxyzZ',
    shortArg: 'eoOpPsSaIuXbU',
    refuse: 'E',
    long: ['--summary-only', '--summary', '--follow-forks', '--output-separately', '--daemonize', '--quiet'],
    longArg: ['--trace', '--output', '--string-limit', '--signal', '--status', '--attach', '--user'],
    refuseLong: ['--env'],
    creates: ['o', '--output'],
  },
};
