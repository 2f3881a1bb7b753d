import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createToolRegistry } from '../../../src/worker/tools/tool-set';
import { DO, makeSandbox, type Sandbox } from './helpers';

let sb: Sandbox;
const reg = createToolRegistry({ ripgrepPath: null });
beforeEach(() => {
  sb = makeSandbox();
});
afterEach(() => sb.cleanup());

const read = (input: unknown) => reg.execute('read_file', input, sb.ctx(), DO);

describe('read_file', () => {
  it('numbers lines like cat -n', async () => {
    sb.write('a.txt', 'alpha\nbeta\n\tgamma\n');
    expect((await read({ path: 'a.txt' })).content).toBe('     1\talpha\n     2\tbeta\n     3\t\tgamma');
  });

  it('reads a line range and says which part it shows', async () => {
    sb.write('a.txt', Array.from({ length: 10 }, (_, i) => `L${i + 1}`).join('\n'));
    const res = await read({ path: 'a.txt', offset: 3, limit: 2 });
    expect(res.content).toBe('     3\tL3\n     4\tL4\n[lines 3-4 of 10]');
    expect((await read({ path: 'a.txt', offset: 9 })).content).toBe('     9\tL9\n    10\tL10\n[lines 9-10 of 10]');
    expect((await read({ path: 'a.txt', limit: 1 })).content).toBe('     1\tL1\n[lines 1-1 of 10]');
    const past = await read({ path: 'a.txt', offset: 11 });
    expect(past).toEqual({ content: 'offset 11 is past the end of a.txt (10 lines)', isError: true });
  });

  it('shows CRLF files without carriage returns', async () => {
    sb.write('w.txt', 'one\r\ntwo\r\n');
    expect((await read({ path: 'w.txt' })).content).toBe('     1\tone\n     2\ttwo');
  });

  it('says when a file is empty', async () => {
    sb.write('e.txt', '');
    expect(await read({ path: 'e.txt' })).toEqual({ content: '(e.txt is empty)', isError: false });
  });

  it('refuses binary files (NUL in the first 8 KB)', async () => {
    sb.write('bin.dat', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]));
    expect(await read({ path: 'bin.dat' })).toEqual({ content: 'bin.dat is a binary file; not shown', isError: true });
    sb.write('late.txt', Buffer.concat([Buffer.alloc(9_000, 0x61), Buffer.from([0])]));
    expect((await read({ path: 'late.txt' })).isError).toBe(false);
  });

  it('refuses a whole read over 2 MB but reads a range of it', async () => {
    const line = 'x'.repeat(99) + '\n';
    sb.write('huge.txt', line.repeat(25_000)); // 2.5 MB
    const whole = await read({ path: 'huge.txt' });
    expect(whole.isError).toBe(true);
    expect(whole.content).toMatch(/^huge\.txt is 2,500,000 bytes, over the 2,097,152-byte limit; read a line range/);
    const part = await read({ path: 'huge.txt', offset: 24_999, limit: 5 });
    expect(part.isError).toBe(false);
    expect(part.content).toBe(` 24999\t${'x'.repeat(99)}\n 25000\t${'x'.repeat(99)}\n[lines 24999-25000 of 25000]`);
  });

  it('reads absolute paths inside the project and additional directories', async () => {
    const abs = sb.write('sub/b.txt', 'inside\n');
    expect((await read({ path: abs })).content).toBe('     1\tinside');
    const extra = sb.write(`${sb.outside}/lib.txt`, 'extra\n');
    const res = await reg.execute('read_file', { path: extra }, sb.ctx({ additionalDirectories: [sb.outside] }), DO);
    expect(res).toEqual({ content: '     1\textra', isError: false });
  });
});
