import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  helperEnabled,
  helperSocket,
  servedByHelper,
  unsafeFolderReason,
} from '../../../src/main/shells/cli/decision-helper-socket';
import { HelperMessageSchema } from '../../../src/main/shells/cli/decision-helper-protocol';

const BUILD = '0123456789abcdef';
const uid = process.getuid!();
let root: string;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-helper-socket-')));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe('which calls the decision helper serves', () => {
  it('serves the per-call hook commands only', () => {
    expect(servedByHelper(['permissions', 'check', '--call', '{}'])).toEqual({ readsStdin: false });
    expect(servedByHelper(['hook', 'claude'])).toEqual({ readsStdin: true });
    // `hook claude --help` reads no stdin: in-process, so the client never waits for input it would not read.
    expect(servedByHelper(['hook', 'claude', '--help'])).toBeNull();
    for (const argv of [
      [],
      ['permissions'],
      ['rules', 'list'],
      ['run', 'hi'],
      ['trust', 'set', '.'],
      ['hooks', 'list'],
    ])
      expect(servedByHelper(argv)).toBeNull();
  });

  it('is on unless GATEHOUSE_DECISION_HELPER turns it off', () => {
    expect(helperEnabled({})).toBe(process.platform !== 'win32');
    for (const off of ['0', 'off', 'false', 'no', ' OFF '])
      expect(helperEnabled({ GATEHOUSE_DECISION_HELPER: off })).toBe(false);
  });
});

describe('the socket folder', () => {
  it('is <XDG_RUNTIME_DIR>/gatehouse-<uid>, created 0700, named by the build (the secret beside the socket)', () => {
    const where = helperSocket({ XDG_RUNTIME_DIR: root }, BUILD, uid);
    expect(where).toEqual({
      ok: true,
      dir: path.join(root, `gatehouse-${uid}`),
      socket: path.join(root, `gatehouse-${uid}`, `${BUILD}.sock`),
      secret: path.join(root, `gatehouse-${uid}`, `${BUILD}.secret`),
    });
    expect(fs.statSync(path.join(root, `gatehouse-${uid}`)).mode & 0o777).toBe(0o700);
  });

  it("is in the temp folder when XDG_RUNTIME_DIR is unset, relative, or not the user's", () => {
    const savedTmp = process.env.TMPDIR;
    process.env.TMPDIR = path.join(root, 'tmp');
    fs.mkdirSync(process.env.TMPDIR);
    try {
      const inTmp = { ok: true, dir: path.join(root, 'tmp', `gatehouse-${uid}`) };
      expect(helperSocket({}, BUILD, uid)).toMatchObject(inTmp);
      expect(helperSocket({ XDG_RUNTIME_DIR: 'relative/run' }, BUILD, uid)).toMatchObject(inTmp);
      if (uid === 0) {
        // Someone else's runtime folder (changing an owner needs root).
        const theirs = path.join(root, 'theirs');
        fs.mkdirSync(theirs, { mode: 0o700 });
        fs.chownSync(theirs, 12345, 12345);
        expect(helperSocket({ XDG_RUNTIME_DIR: theirs }, BUILD, uid)).toMatchObject(inTmp);
        expect(fs.readdirSync(theirs)).toEqual([]);
      }
    } finally {
      if (savedTmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = savedTmp;
    }
  });

  it('is refused when it is a symlink, not a folder, open to others, or owned by someone else', () => {
    const dir = path.join(root, 'dir');
    fs.mkdirSync(dir, { mode: 0o700 });
    expect(unsafeFolderReason(dir, uid)).toBeNull();
    expect(unsafeFolderReason(dir, uid + 1)).toBe(`${dir} is owned by uid ${uid}, not ${uid + 1}`);
    fs.chmodSync(dir, 0o750);
    expect(unsafeFolderReason(dir, uid)).toBe(`${dir} has mode 750, not 700`);
    fs.chmodSync(dir, 0o700);
    const link = path.join(root, 'link');
    fs.symlinkSync(dir, link);
    expect(unsafeFolderReason(link, uid)).toBe(`${link} is a symbolic link`);
    const file = path.join(root, 'file');
    fs.writeFileSync(file, '');
    expect(unsafeFolderReason(file, uid)).toBe(`${file} is not a folder`);
    expect(unsafeFolderReason(path.join(root, 'missing'), uid)).toContain('ENOENT');
    // The same through helperSocket: a pre-made gatehouse-<uid> that is unsafe means no helper.
    fs.symlinkSync(dir, path.join(root, `gatehouse-${uid}`));
    expect(helperSocket({ XDG_RUNTIME_DIR: root }, BUILD, uid)).toEqual({
      ok: false,
      reason: `${path.join(root, `gatehouse-${uid}`)} is a symbolic link`,
    });
  });

  it('gives no socket whose path is too long for the system', () => {
    const deep = path.join(root, 'x'.repeat(100));
    fs.mkdirSync(deep);
    expect(helperSocket({ XDG_RUNTIME_DIR: deep }, BUILD, uid)).toMatchObject({ ok: false, reason: /too long/ });
  });
});

describe('the messages a client accepts', () => {
  it('are a start with a pid, a reply with an integer exit code and output, or a refusal', () => {
    expect(HelperMessageSchema.safeParse({ type: 'start', pid: 12 }).success).toBe(true);
    expect(HelperMessageSchema.safeParse({ type: 'start', pid: 0 }).success).toBe(false);
    const out = [{ stream: 'out', text: '{}\n' }];
    expect(HelperMessageSchema.safeParse({ type: 'reply', exitCode: 0, output: out }).success).toBe(true);
    expect(HelperMessageSchema.safeParse({ type: 'reply', exitCode: 1.5, output: out }).success).toBe(false);
    expect(
      HelperMessageSchema.safeParse({ type: 'reply', exitCode: 0, output: [{ stream: 'tty', text: '' }] }).success,
    ).toBe(false);
    expect(HelperMessageSchema.safeParse({ type: 'refused', reason: 'busy' }).success).toBe(true);
    expect(HelperMessageSchema.safeParse({ type: 'other' }).success).toBe(false);
  });
});
