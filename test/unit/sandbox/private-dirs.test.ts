import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { processRuns } from '../../../src/shared/node/process-runs';
import { makePrivateDir, removeOrphanedPrivateDirs } from '../../../src/sandbox/private-dirs';

let base: string;
const children: ChildProcess[] = [];

beforeEach(() => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-private-dirs-')));
});
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  fs.rmSync(base, { recursive: true, force: true });
});

/** The pid of a process that ran and has exited (and was reaped): nothing runs under it now. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

/** A process that runs until the test ends. */
function livePid(): number {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  children.push(child);
  return child.pid!;
}

function folder(name: string, withFile = true): string {
  const dir = path.join(base, name);
  fs.mkdirSync(dir);
  if (withFile) fs.writeFileSync(path.join(dir, 'left.txt'), 'a command wrote this\n');
  return dir;
}

describe('the sandboxes’ private folders', () => {
  it('are named after the process that made them', async () => {
    const dir = await makePrivateDir('tmp', base);
    expect(path.basename(dir)).toMatch(new RegExp(`^gatehouse-sandbox-tmp-${process.pid}-[A-Za-z0-9]{6}$`));
    const net = await makePrivateDir('net', base);
    expect(path.basename(net)).toMatch(new RegExp(`^gatehouse-sandbox-net-${process.pid}-`));
  });

  it('of a process that no longer runs are removed, with what is in them; those of running processes stay', async () => {
    const dead = await deadPid();
    const live = livePid();
    expect(processRuns(dead)).toBe(false);
    expect(processRuns(live)).toBe(true);
    const orphanTmp = folder(`gatehouse-sandbox-tmp-${dead}-a1B2c3`);
    const orphanNet = folder(`gatehouse-sandbox-net-${dead}-Zz9Yy8`);
    const mine = folder(`gatehouse-sandbox-tmp-${process.pid}-abcdef`);
    const running = folder(`gatehouse-sandbox-tmp-${live}-abcdef`);
    expect((await removeOrphanedPrivateDirs(base)).sort()).toEqual([orphanNet, orphanTmp].sort());
    expect(fs.existsSync(orphanTmp)).toBe(false);
    expect(fs.existsSync(orphanNet)).toBe(false);
    expect(fs.readFileSync(path.join(mine, 'left.txt'), 'utf8')).toContain('a command wrote this');
    expect(fs.existsSync(path.join(running, 'left.txt'))).toBe(true);
  });

  it('never follows a symbolic link, and leaves files and other names alone', async () => {
    const dead = await deadPid();
    const target = folder('precious');
    const link = path.join(base, `gatehouse-sandbox-tmp-${dead}-LINK00`);
    fs.symlinkSync(target, link);
    const file = path.join(base, `gatehouse-sandbox-tmp-${dead}-FILE00`);
    fs.writeFileSync(file, 'not a folder\n');
    const others = [
      folder(`gatehouse-sandbox-tmp-${dead}-short`), // five characters, not mkdtemp's six
      folder(`gatehouse-sandbox-tmp-x${dead}-abcdef`),
      folder('gatehouse-sandbox-tmp-abcdef'), // an older version's name: no pid in it
      folder(`gatehouse-sandbox-home-${dead}-abcdef`),
      folder(`other-gatehouse-sandbox-tmp-${dead}-abcdef`),
    ];
    expect(await removeOrphanedPrivateDirs(base)).toEqual([]);
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.existsSync(path.join(target, 'left.txt'))).toBe(true);
    expect(fs.existsSync(file)).toBe(true);
    for (const dir of others) expect(fs.existsSync(dir), dir).toBe(true);
  });

  it('a pid that names no process does not run; whether a folder goes is up to the check it is given', async () => {
    expect(processRuns(0)).toBe(false);
    expect(processRuns(-1)).toBe(false);
    expect(processRuns(Number.MAX_SAFE_INTEGER + 1)).toBe(false);
    expect(processRuns(process.pid)).toBe(true);
    const dir = folder('gatehouse-sandbox-tmp-7-abcdef');
    expect(await removeOrphanedPrivateDirs(base, () => true)).toEqual([]);
    expect(fs.existsSync(dir)).toBe(true);
    expect(await removeOrphanedPrivateDirs(base, () => false)).toEqual([dir]);
  });

  it('a missing base folder is no error', async () => {
    expect(await removeOrphanedPrivateDirs(path.join(base, 'missing'))).toEqual([]);
  });
});
