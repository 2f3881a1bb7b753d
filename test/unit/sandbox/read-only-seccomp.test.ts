import { describe, expect, it } from 'vitest';
import { readOnlySeccompProgram, SECCOMP_FD, withSeccompFd } from '../../../src/sandbox/read-only-seccomp';

// The filter, run instruction by instruction by a small classic-BPF interpreter over `struct seccomp_data`.

const ALLOW = 0x7fff0000;
const KILL = 0x80000000;
const errno = (e: number): number => 0x00050000 | e;

function runFilter(program: Buffer, data: { nr: number; arch: number; arg0?: number }): number {
  const mem = Buffer.alloc(64);
  mem.writeUInt32LE(data.nr >>> 0, 0);
  mem.writeUInt32LE(data.arch >>> 0, 4);
  mem.writeUInt32LE((data.arg0 ?? 0) >>> 0, 16);
  let acc = 0;
  for (let pc = 0; pc < program.length / 8; pc++) {
    const code = program.readUInt16LE(pc * 8);
    const jt = program.readUInt8(pc * 8 + 2);
    const jf = program.readUInt8(pc * 8 + 3);
    const k = program.readUInt32LE(pc * 8 + 4);
    if (code === 0x20) acc = mem.readUInt32LE(k);
    else if (code === 0x15) pc += acc === k ? jt : jf;
    else if (code === 0x35) pc += acc >= k ? jt : jf;
    else if (code === 0x06) return k;
    else throw new Error(`unexpected BPF code ${code.toString(16)} at ${pc}`);
  }
  throw new Error('the filter fell off its end');
}

const X64 = 0xc000003e;
const ARM64 = 0xc00000b7;
const I386 = 0x40000003;

describe('the read-only seccomp filter', () => {
  it('x86-64: no unix socket, no io_uring, nothing from another ABI; everything else as usual', () => {
    const p = readOnlySeccompProgram('x64')!;
    expect(runFilter(p, { arch: X64, nr: 41, arg0: 1 })).toBe(errno(13)); // socket(AF_UNIX)
    expect(runFilter(p, { arch: X64, nr: 41, arg0: 2 })).toBe(ALLOW); // socket(AF_INET): its own empty network
    expect(runFilter(p, { arch: X64, nr: 53, arg0: 1 })).toBe(ALLOW); // socketpair(AF_UNIX): reaches nobody
    expect(runFilter(p, { arch: X64, nr: 425 })).toBe(errno(38)); // io_uring_setup
    for (const nr of [0, 1, 2, 42, 59, 257]) expect(runFilter(p, { arch: X64, nr }), String(nr)).toBe(ALLOW);
    expect(runFilter(p, { arch: X64, nr: 0x40000000 + 41, arg0: 1 })).toBe(KILL); // x32
    expect(runFilter(p, { arch: I386, nr: 102 })).toBe(KILL); // socketcall of a 32-bit program
  });

  it('arm64: the same, with its own numbers', () => {
    const p = readOnlySeccompProgram('arm64')!;
    expect(runFilter(p, { arch: ARM64, nr: 198, arg0: 1 })).toBe(errno(13));
    expect(runFilter(p, { arch: ARM64, nr: 198, arg0: 10 })).toBe(ALLOW);
    expect(runFilter(p, { arch: ARM64, nr: 425 })).toBe(errno(38));
    expect(runFilter(p, { arch: ARM64, nr: 203 })).toBe(ALLOW); // connect on an existing socket: none is unix
    expect(runFilter(p, { arch: X64, nr: 41, arg0: 1 })).toBe(KILL);
  });

  it('none where the numbers are not known', () => {
    expect(readOnlySeccompProgram('riscv64')).toBeNull();
  });

  it('reaches bubblewrap through a pipe, byte for byte, never through a file', () => {
    const program = readOnlySeccompProgram('x64')!;
    const w = withSeccompFd('/usr/bin/bwrap', ['--seccomp', String(SECCOMP_FD), '--', 'bash', '-c', 'ls'], program);
    expect(w.file).toBe('bash');
    expect(w.args[1]).toBe(`exec ${SECCOMP_FD}< <(printf %b "$0") && exec "$@"`);
    const bytes = Buffer.from(
      (w.args[2] ?? '')
        .split('\\x')
        .slice(1)
        .map((h) => parseInt(h, 16)),
    );
    expect(bytes.equals(program)).toBe(true);
    expect(w.args.slice(3)).toEqual(['/usr/bin/bwrap', '--seccomp', String(SECCOMP_FD), '--', 'bash', '-c', 'ls']);
  });
});
