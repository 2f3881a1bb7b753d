import { describe, expect, it } from 'vitest';
import { killWindowsTree, taskkillPath, type ProgramRunner } from '../../../src/shared/node/process-tree';
import { treeEnderFor } from '../../../src/worker/tools/process-group';

// Windows ends a command's tree with taskkill; here taskkill is a fake that records its argv and answers as the real
// one does (exit 0: ended; 128: no such process; 1: refused, with its message).

function fakeTaskkill(answer: { code: number | null; output: string }): ProgramRunner & { calls: string[][] } {
  const calls: string[][] = [];
  const run = async (file: string, args: readonly string[]) => {
    calls.push([file, ...args]);
    return answer;
  };
  return Object.assign(run, { calls });
}

const TASKKILL = 'C:\\Windows\\System32\\taskkill.exe';

describe('ending a process tree on Windows', () => {
  it('runs taskkill /PID <pid> /T /F from the Windows folder: the process and everything it started', async () => {
    const run = fakeTaskkill({
      code: 0,
      output: 'SUCCESS: The process with PID 4242 (child process of PID 4100) has been terminated.',
    });
    expect(await killWindowsTree(4100, run, TASKKILL)).toBeNull();
    expect(run.calls).toEqual([[TASKKILL, '/PID', '4100', '/T', '/F']]);
  });

  it('a tree that already ended is nothing to report', async () => {
    const run = fakeTaskkill({ code: 128, output: 'ERROR: The process "4100" not found.' });
    expect(await killWindowsTree(4100, run, TASKKILL)).toBeNull();
  });

  it('a refusal is reported with the pid, the exit code and taskkill first words', async () => {
    const run = fakeTaskkill({
      code: 1,
      output:
        '\r\nERROR: The process with PID 4300 (child process of PID 4100) could not be terminated.\r\nReason: Access is denied.\r\n',
    });
    expect(await killWindowsTree(4100, run, TASKKILL)).toBe(
      'taskkill could not end process 4100 and its children (exit code 1: ERROR: The process with PID 4300 (child process of PID 4100) could not be terminated.)',
    );
  });

  it('a taskkill that does not run is reported too', async () => {
    const run = fakeTaskkill({ code: null, output: 'spawn C:\\Windows\\System32\\taskkill.exe ENOENT' });
    expect(await killWindowsTree(7, run, TASKKILL)).toBe(
      'taskkill could not end process 7 and its children (it did not run: spawn C:\\Windows\\System32\\taskkill.exe ENOENT)',
    );
  });

  it('taskkill is the Windows folder one, never a taskkill found on PATH', () => {
    expect(taskkillPath({ SystemRoot: 'D:\\WINNT', PATH: 'C:\\evil' })).toBe('D:\\WINNT\\System32\\taskkill.exe');
    expect(taskkillPath({})).toBe(TASKKILL);
  });

  it("run_command's tree ender is taskkill on Windows, the process group elsewhere", async () => {
    // A pid no process has: the group signals find nobody, and nothing is reported either way.
    expect(await treeEnderFor('linux')(2 ** 22 + 12345, 10)).toBeNull();
    // Windows' runs taskkill, which is not on this machine: it says so rather than pretend the tree ended.
    if (process.platform !== 'win32')
      expect(await treeEnderFor('win32')(123, 10)).toMatch(
        /^taskkill could not end process 123 and its children \(it did not run: .*ENOENT\)$/,
      );
  });
});
