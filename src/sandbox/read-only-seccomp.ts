/**
 * The read-only profile's seccomp filter (bubblewrap `--seccomp`): no new unix socket. Its empty network namespace
 * already leaves no route to any address, but a socket file on the disk (a session bus, an agent, a container
 * engine, a helper of our own) stays connectable through a read-only mount, and any such service acts with more
 * authority than the sandbox. A read-only command has no business opening one, so `socket(AF_UNIX, ...)` fails with
 * EACCES (name services fall back to their files) and `io_uring_setup` with ENOSYS (its socket and connect
 * operations would bypass the check; programs fall back to plain calls). `socketpair` stays: it reaches nobody.
 * Only the native architecture may make system calls (a 32-bit or x32 call could reach `socketcall` instead).
 *
 * Classic BPF over `struct seccomp_data` (nr at 0, arch at 4, args[0] at 16, little-endian on both targets).
 */

const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const RET_K = 0x06;

const RET_ALLOW = 0x7fff0000;
const RET_KILL_PROCESS = 0x80000000;
const RET_ERRNO = 0x00050000;
const EACCES = 13;
const ENOSYS = 38;
const AF_UNIX = 1;
/** x86-64's x32 ABI marks its system call numbers with this bit. */
const X32_SYSCALL_BIT = 0x40000000;

interface Arch {
  audit: number;
  socket: number;
  ioUringSetup: number;
  x32: boolean;
}

const ARCHES: Partial<Record<NodeJS.Architecture, Arch>> = {
  x64: { audit: 0xc000003e, socket: 41, ioUringSetup: 425, x32: true },
  arm64: { audit: 0xc00000b7, socket: 198, ioUringSetup: 425, x32: false },
};

type Insn = { code: number; k: number; jt?: string; jf?: string } | { label: string };

/** Assembles `insns`, resolving the labels of forward jumps. */
function assemble(insns: Insn[]): Buffer {
  const code = insns.filter((i): i is Exclude<Insn, { label: string }> => !('label' in i));
  const at = new Map<string, number>();
  let n = 0;
  for (const i of insns)
    if ('label' in i) at.set(i.label, n);
    else n++;
  const out = Buffer.alloc(code.length * 8);
  code.forEach((i, index) => {
    const offset = (label: string | undefined): number => {
      if (label === undefined) return 0;
      const target = at.get(label);
      if (target === undefined || target <= index) throw new Error(`bad seccomp jump to ${label}`);
      return target - index - 1;
    };
    out.writeUInt16LE(i.code, index * 8);
    out.writeUInt8(offset(i.jt), index * 8 + 2);
    out.writeUInt8(offset(i.jf), index * 8 + 3);
    out.writeUInt32LE(i.k >>> 0, index * 8 + 4);
  });
  return out;
}

/** The filter for this machine's architecture, or null where there is none (the profile then goes without it). */
export function readOnlySeccompProgram(arch: NodeJS.Architecture = process.arch): Buffer | null {
  const a = ARCHES[arch];
  if (a === undefined) return null;
  return assemble([
    { code: LD_W_ABS, k: 4 },
    { code: JEQ_K, k: a.audit, jt: 'native', jf: 'kill' },
    { label: 'native' },
    { code: LD_W_ABS, k: 0 },
    ...(a.x32 ? [{ code: JGE_K, k: X32_SYSCALL_BIT, jt: 'kill', jf: 'not-x32' }, { label: 'not-x32' }] : []),
    { code: JEQ_K, k: a.ioUringSetup, jt: 'enosys', jf: 'not-io-uring' },
    { label: 'not-io-uring' },
    { code: JEQ_K, k: a.socket, jt: 'socket', jf: 'allow' },
    { label: 'socket' },
    { code: LD_W_ABS, k: 16 },
    { code: JEQ_K, k: AF_UNIX, jt: 'eacces', jf: 'allow' },
    { label: 'allow' },
    { code: RET_K, k: RET_ALLOW },
    { label: 'eacces' },
    { code: RET_K, k: RET_ERRNO | EACCES },
    { label: 'enosys' },
    { code: RET_K, k: RET_ERRNO | ENOSYS },
    { label: 'kill' },
    { code: RET_K, k: RET_KILL_PROCESS },
  ]);
}

/** The descriptor bubblewrap reads the filter from. */
export const SECCOMP_FD = 10;

/**
 * The argv that hands `program` to bubblewrap on SECCOMP_FD through a pipe (no file a sandboxed command could
 * replace): bash opens the pipe from printf (the bytes as `\xHH` escapes), then becomes bubblewrap.
 */
export function withSeccompFd(
  bwrapPath: string,
  bwrapArgs: readonly string[],
  program: Buffer,
): {
  file: string;
  args: string[];
} {
  const escaped = [...program].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('');
  return {
    file: 'bash',
    args: ['-c', `exec ${SECCOMP_FD}< <(printf %b "$0") && exec "$@"`, escaped, bwrapPath, ...bwrapArgs],
  };
}
