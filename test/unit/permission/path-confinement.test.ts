import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settle } from '../../../src/main/core/paths/fs-view';
import {
  PathConfinement,
  resolveRealPath,
  type ConfinementVerdict,
} from '../../../src/main/core/paths/path-confinement';
import { judgePath } from '../../../src/main/core/paths/judged-path';
import { isInside, relativeEscapes as relEscapes } from '../../../src/shared/node/path-containment';

let root: string;
let project: string;
let outside: string;
let home: string;

beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-confine-')));
  project = path.join(root, 'project');
  outside = path.join(root, 'outside');
  home = path.join(root, 'home');
  for (const d of [path.join(project, 'src', 'deep'), outside, home, path.join(root, 'extra')])
    fs.mkdirSync(d, { recursive: true });
  fs.writeFileSync(path.join(outside, 'secret.txt'), 's');
  fs.symlinkSync('../outside', path.join(project, 'link-out'));
  fs.symlinkSync('../outside/secret.txt', path.join(project, 'link-file'));
  fs.symlinkSync('src', path.join(project, 'link-in'));
  fs.symlinkSync('link-out', path.join(project, 'chain'));
  fs.symlinkSync('../outside/not-yet', path.join(project, 'dangling'));
  fs.symlinkSync('loop-b', path.join(project, 'loop-a'));
  fs.symlinkSync('loop-a', path.join(project, 'loop-b'));
  fs.symlinkSync(path.join(root, 'extra'), path.join(project, 'to-extra'));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** Where `p` lands, the disk read as the engine reads it (see fs-view.ts). */
function judge(p: string, extra: string[] = [path.join(root, 'extra')]): Promise<ConfinementVerdict> {
  return settle((fs) => new PathConfinement(project, extra, home, fs).judge(p));
}

describe('PathConfinement', () => {
  it('judges where paths really land', async () => {
    expect((await judge('src/deep/new/file.ts')).root).toBe(project);
    expect((await judge('../outside/secret.txt')).root).toBeNull();
    expect((await judge('/etc/passwd')).root).toBeNull();
    expect((await judge('link-out/secret.txt')).root).toBeNull();
    expect((await judge('link-out/new.txt')).root).toBeNull();
    expect((await judge('link-file')).root).toBeNull();
    expect((await judge('chain/x')).root).toBeNull();
    expect((await judge('dangling')).real).toBe(path.join(outside, 'not-yet'));
    expect((await judge('link-in/deep')).real).toBe(path.join(project, 'src', 'deep'));
    expect((await judge('src/../../project/src')).root).toBe(project);
    expect((await judge('to-extra/x')).root).toBe(path.join(root, 'extra'));
    expect((await judge('~/x')).root).toBeNull();
    expect((await judge(project)).root).toBe(project);
  });
  it('link loops throw rather than hang', async () => {
    await expect(judge('loop-a/x')).rejects.toThrow(/symbolic links/);
  });
  it('isInside is segment-aware', () => {
    expect(isInside('/a/bc', '/a/b')).toBe(false);
    expect(isInside('/a/b/c', '/a/b')).toBe(true);
    expect(isInside('/a/b', '/a/b')).toBe(true);
    expect(isInside('/a', '/a/b')).toBe(false);
  });

  it('a name that starts with two dots is inside; only `..` segments leave', async () => {
    expect(isInside('/a/b/..dots.txt', '/a/b')).toBe(true);
    expect(isInside('/a/b/...', '/a/b')).toBe(true);
    expect((await judge('..dots.txt')).root).toBe(project);
    expect((await judge('..cache/new.txt')).root).toBe(project);
    expect((await judge('src/..x/../../..')).root).toBeNull();
    expect((await judge('../project-sibling/x')).root).toBeNull();
    for (const rel of ['..', '../x', `..${path.sep}x`, '/abs']) expect(relEscapes(rel), rel).toBe(true);
    for (const rel of ['..dots', '...', 'a/..b', '.']) expect(relEscapes(rel), rel).toBe(false);
  });
});

/** The reference: create the path for real (directories, inside the fixture's root), then ask the OS where it is. */
function referenceResolve(rel: string): string | null {
  const abs = path.join(project, rel);
  try {
    fs.mkdirSync(abs, { recursive: true });
    return fs.realpathSync(abs);
  } catch {
    return null;
  }
}

describe('property: a path judged inside never resolves outside', () => {
  const segment = fc.constantFrom(
    '..',
    '.',
    'src',
    'deep',
    'link-out',
    'link-in',
    'chain',
    'new',
    'x',
    'dangling',
    'to-extra',
    'project',
  );
  it('random .., symlink chains and missing segments agree with the OS', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { minLength: 1, maxLength: 7 }), async (segs) => {
        const rel = segs.join('/');
        const judged = await judge(rel, []);
        // Enough leading `..` climb out of the fixture (`../../x` is the system's temp folder's x): the reference
        // creates nothing there. Such a path is outside the project whatever it resolves to.
        if (!isInside(path.join(project, rel), root)) {
          expect(judged.root, rel).toBeNull();
          return true;
        }
        const real = referenceResolve(rel);
        if (real === null) return true; // the OS could not create it (e.g. through a file): nothing to compare
        expect(judged.real).toBe(real);
        if (judged.root !== null) expect(isInside(real, project)).toBe(true);
        return true;
      }),
      { numRuns: 300 },
    );
    // The reference created directories inside `outside` too; they do not matter for later runs.
  });
  it('resolveRealPath never reports inside for absolute paths elsewhere', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom('..', 'etc', 'tmp', 'x', '.'), { maxLength: 6 }), async (segs) => {
        const p = '/' + segs.join('/');
        const real = await settle((fs) => resolveRealPath(p, project, home, fs));
        return !isInside(real, project) || p.startsWith(project);
      }),
    );
  });
});

describe('property: a command path judged inside is inside as the kernel resolves it', () => {
  const segment = fc.constantFrom(
    '..',
    '.',
    'src',
    'deep',
    'link-out',
    'link-in',
    'chain',
    'x',
    'to-extra',
    'project',
    'outside',
  );
  it('`..` after symlinks is applied where the kernel applies it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { minLength: 1, maxLength: 7 }), async (segs) => {
        const rel = segs.join('/');
        const judged = await settle((fs) => judgePath(new PathConfinement(project, [], home, fs), rel));
        let kernel: string;
        try {
          kernel = fs.realpathSync.native(`${project}/${rel}`); // realpath(3): physical resolution, no lexical `..`
        } catch {
          return true; // does not exist as the kernel walks it
        }
        if (judged.root !== null) expect(isInside(kernel, project), `${rel} -> ${kernel}`).toBe(true);
        return true;
      }),
      { numRuns: 400 },
    );
  });
});
