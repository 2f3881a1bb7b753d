import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { settingsFileKeys, statKey, type FileKey } from '../../../src/main/core/settings/settings-file-keys';

let root: string;
beforeEach(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-file-keys-')));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const NAMES = [
  'a/settings.yaml',
  'a/settings.json',
  'a/settings.yml',
  'b/settings.json',
  'b/local.json',
  'c/only.yaml',
];

/** What a person (or a script) can do to the settings files and their folders between two decisions. */
type Step =
  | { op: 'write'; name: string; text: string }
  | { op: 'remove'; name: string }
  | { op: 'removeFolder'; folder: string }
  | { op: 'folderAsFile'; folder: string }
  | { op: 'link'; name: string; to: string }
  | { op: 'otherCase'; name: string };

const name = fc.constantFrom(...NAMES);
const folder = fc.constantFrom('a', 'b', 'c');
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ op: fc.constant('write' as const), name, text: fc.string({ maxLength: 8 }) }),
  fc.record({ op: fc.constant('remove' as const), name }),
  fc.record({ op: fc.constant('removeFolder' as const), folder }),
  fc.record({ op: fc.constant('folderAsFile' as const), folder }),
  fc.record({ op: fc.constant('link' as const), name, to: fc.constantFrom('a/settings.yaml', 'nowhere') }),
  fc.record({ op: fc.constant('otherCase' as const), name }),
);

/** Removes `p` if it is there (a path through a file is not there either). */
function rm(p: string): void {
  try {
    fs.rmSync(p, { recursive: true, force: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOTDIR') throw err;
  }
}

function apply(s: Step): void {
  const at = (n: string): string => path.join(root, n);
  const inFolder = (n: string): void => {
    const dir = path.dirname(at(n));
    if (fs.lstatSync(dir, { throwIfNoEntry: false })?.isDirectory() !== true) {
      rm(dir);
      fs.mkdirSync(dir);
    }
  };
  switch (s.op) {
    case 'write':
      inFolder(s.name);
      rm(at(s.name));
      fs.writeFileSync(at(s.name), s.text);
      return;
    case 'remove':
      rm(at(s.name));
      return;
    case 'removeFolder':
      rm(at(s.folder));
      return;
    case 'folderAsFile':
      rm(at(s.folder));
      fs.writeFileSync(at(s.folder), 'not a folder');
      return;
    case 'link':
      inFolder(s.name);
      rm(at(s.name));
      fs.symlinkSync(at(s.to), at(s.name));
      return;
    case 'otherCase':
      inFolder(s.name);
      fs.writeFileSync(path.join(path.dirname(at(s.name)), path.basename(s.name).toUpperCase()), 'x');
  }
}

describe('settingsFileKeys', () => {
  it('gives every file the key its own stat gives, after any creation, removal or replacement', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        fs.rmSync(root, { recursive: true, force: true });
        fs.mkdirSync(root);
        const files = NAMES.map((n) => path.join(root, n));
        let last = new Map<string, FileKey>();
        for (const s of steps) {
          apply(s);
          const keys = await settingsFileKeys(
            files.map((file) => ({ file, wasAbsent: last.get(file)?.key === 'absent' })),
          );
          for (const file of files)
            expect(keys.get(file), `${file} after ${JSON.stringify(s)}`).toEqual(await statKey(file));
          last = keys;
        }
      }),
      { numRuns: 150 },
    );
  });
});
