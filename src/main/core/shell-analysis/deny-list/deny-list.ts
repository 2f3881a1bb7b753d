import path from 'node:path';
import { HOST_PATHS } from '../../../../shared/node/platform-path';
import { expandHome } from '../../paths/path-confinement';
import { isProjectRootItself, protectedTarget, type TargetContext } from './protected-targets';
import type { CommandContext, SimpleCommand, WriteTarget } from '../types';

/**
 * The built-in deny list of the contract ("Commands"), judged on one normalised simple command: the program
 * that really runs (`cmd.name`, wrappers looked through) and its arguments. Words that are only data (an
 * `echo`'s text, a commit message) never match because only the program name and its own options count.
 */
const PRIVILEGE = new Set(['sudo', 'su', 'doas', 'pkexec', 'sudoedit', 'run0']);
const POWER = new Set(['shutdown', 'reboot', 'halt', 'poweroff']);
const DISK_TOOLS = new Set(['mke2fs', 'fdisk', 'sfdisk', 'cfdisk', 'gdisk', 'sgdisk', 'parted', 'wipefs', 'mkswap']);
const SYSTEMCTL_POWER = new Set(['poweroff', 'reboot', 'halt', 'kexec']);
/** Device files that are not disks: writing them is harmless. */
const HARMLESS_DEVICES = /^\/dev\/(null|zero|full|random|urandom|tty|stdout|stderr|stdin|fd\/\d+|pts\/\d+)$/;
const DISK_DEVICE =
  /^\/dev\/(sd[a-z]|nvme\d|disk\d|rdisk\d|disk\/|hd[a-z]|vd[a-z]|xvd[a-z]|mmcblk\d|md\d|dm-\d|mapper\/|loop\d|mem$|kmem$|port$)/;

/** Operands (non-option words) of a command, honouring `--`. */
function operands(argv: string[]): string[] {
  const out: string[] = [];
  let options = true;
  for (const a of argv.slice(1)) {
    if (options && a === '--') options = false;
    else if (options && a.startsWith('-') && a.length > 1) continue;
    else out.push(a);
  }
  return out;
}

function hasRecursiveFlag(argv: string[], letters: RegExp): boolean {
  for (const a of argv.slice(1)) {
    if (a === '--') return false;
    if (a.length >= 3 && '--recursive'.startsWith(a)) return true; // getopt accepts unambiguous prefixes
    if (/^-[A-Za-z]+$/.test(a) && letters.test(a.slice(1))) return true;
  }
  return false;
}

function normalDevice(p: string): string {
  return path.posix.normalize(p);
}

function isDiskDevice(p: string): boolean {
  if (!p.startsWith('/')) return false;
  const n = normalDevice(p);
  return DISK_DEVICE.test(n);
}

function firstProtected(targets: string[], ctx: TargetContext): string | null {
  for (const t of targets) {
    const hit = protectedTarget(t, ctx);
    if (hit !== null) return hit;
  }
  return null;
}

/** Leading paths of `find` (after -H/-L/-P/-D/-O options, before the expression); `.` when none. */
function findPaths(argv: string[]): string[] {
  let i = 1;
  while (i < argv.length && /^-([HLP]|D|O\d*)$/.test(argv[i] as string)) i += argv[i] === '-D' ? 2 : 1;
  const paths: string[] = [];
  while (i < argv.length && !/^[-(!]/.test(argv[i] as string)) paths.push(argv[i++] as string);
  return paths.length > 0 ? paths : ['.'];
}

/** Tests that select some files: `find . -name '*.o' -delete` in the project is a cleanup, `find . -delete` is not. */
const FIND_FILTERS =
  /^-(i?name|i?path|i?wholename|i?regex|i?lname|type|xtype|newer\w*|[acm](time|min)|used|size|empty|user|group|uid|gid|nouser|nogroup|perm|links|inum|samefile|readable|writable|executable|fstype|context)$/;

function findDeletes(argv: string[]): boolean {
  return findDeleteAt(argv) >= 0;
}

/** Index of the first deleting action (`-delete`, `-exec rm ...`), or -1. */
function findDeleteAt(argv: string[]): number {
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a === '-delete') return i;
    if (/^-(exec|execdir|ok|okdir)$/.test(a)) {
      const prog = path.posix.basename(argv[i + 1] ?? '');
      if (/^(rm|unlink|shred|rmdir)$/.test(prog)) return i;
    }
  }
  return -1;
}

/**
 * find evaluates its expression left to right: a delete is limited by a test only when the test comes before it
 * and nothing turns the selection around (`-o`, `!`, `-not`, `,`, parentheses): `find . -delete -name x` and
 * `find . ! -name keep -delete` delete everything.
 */
function findDeleteFiltered(argv: string[]): boolean {
  const at = findDeleteAt(argv);
  const before = argv.slice(1, at);
  if (before.some((a) => /^(-o|-or|!|-not|,|\(|\))$/.test(a))) return false;
  return before.some((a) => FIND_FILTERS.test(a));
}

/** The context with the command's own working directory, when a literal `cd` moved it. */
function targetContext(cmd: SimpleCommand, ctx: CommandContext): TargetContext {
  if (typeof cmd.cwd !== 'string') return ctx;
  const sys = ctx.sys ?? HOST_PATHS;
  const cwd = sys.fromShell(expandHome(cmd.cwd, ctx.home, sys));
  return cwd === null ? ctx : { ...ctx, cwd: sys.resolve(ctx.projectRoot, cwd) };
}

export function hardDenyReason(cmd: SimpleCommand, commandCtx: CommandContext): string | null {
  const ctx = targetContext(cmd, commandCtx);
  const name = cmd.name;
  const argv = cmd.argv;
  const args = operands(argv);
  if (PRIVILEGE.has(name)) return `${name} changes privileges`;
  if (POWER.has(name)) return `${name} powers the machine off or restarts it`;
  if ((name === 'init' || name === 'telinit') && args.some((a) => a === '0' || a === '6')) {
    return `${name} ${args.join(' ')} powers the machine off or restarts it`;
  }
  if ((name === 'systemctl' || name === 'loginctl') && args[0] !== undefined && SYSTEMCTL_POWER.has(args[0])) {
    return `${name} ${args[0]} powers the machine off or restarts it`;
  }
  if (name === 'systemctl' && (args[0] === 'isolate' || args[0] === 'start')) {
    const target = args.slice(1).find((a) => /^(poweroff|reboot|halt|kexec)(\.target)?$/.test(a));
    if (target !== undefined) return `systemctl ${args[0]} ${target} powers the machine off or restarts it`;
  }
  if (name === 'mkfs' || name.startsWith('mkfs.') || DISK_TOOLS.has(name)) return `${name} formats or partitions disks`;
  if (name === 'dd') {
    const of = argv.slice(1).find((a) => a.startsWith('of='));
    const target = of?.slice(3) ?? '';
    if (target.startsWith('/dev/') && !HARMLESS_DEVICES.test(normalDevice(target))) {
      return `dd writes to the device ${target}`;
    }
  }
  if (name === 'shred') {
    const disk = args.find(isDiskDevice);
    if (disk !== undefined) return `shred overwrites the disk ${disk}`;
  }
  if (
    (name === 'cp' || name === 'mv' || name === 'install') &&
    args.length >= 2 &&
    isDiskDevice(args[args.length - 1] as string)
  ) {
    return `${name} writes to the disk device ${args[args.length - 1] as string}`;
  }
  if (name === 'rm' && hasRecursiveFlag(argv, /[rR]/)) {
    const hit = firstProtected(args, ctx);
    if (hit !== null) return `recursive rm of ${hit}`;
  }
  if ((name === 'chmod' || name === 'chown' || name === 'chgrp') && hasRecursiveFlag(argv, /R/)) {
    const hit = firstProtected(args, ctx);
    if (hit !== null) return `recursive ${name} of ${hit}`;
  }
  if (name === 'find' && findDeletes(argv)) {
    const filtered = findDeleteFiltered(argv);
    const paths = findPaths(argv).filter((p) => !(filtered && isProjectRootItself(p, ctx)));
    const hit = firstProtected(paths, ctx);
    if (hit !== null) return `find deleting in ${hit}`;
  }
  return null;
}

/** A redirection or `tee` that writes to a disk device (`> /dev/sda`) or the kernel's reboot switch is denied. */
export function hardDenyWriteReason(target: WriteTarget): string | null {
  if (isDiskDevice(target.path)) return `writes to the disk device ${target.path}`;
  if (target.path.startsWith('/') && normalDevice(target.path) === '/proc/sysrq-trigger') {
    return 'writes to /proc/sysrq-trigger (reboots or halts the machine)';
  }
  return null;
}
