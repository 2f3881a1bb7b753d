import { describe, expect, it } from 'vitest';
import { patchByFile } from '../../../src/renderer/src/rewind/rewind-patch';

// The rewind preview shows one file's diff at a time: the checkpoint's one patch is cut per file.

const section = (file: string, body: string): string =>
  `diff --git a/${file} b/${file}\nindex 1111111..2222222 100644\n--- a/${file}\n+++ b/${file}\n${body}`;

describe('patchByFile', () => {
  it('gives each changed file its own section, names with spaces too', () => {
    const a = section('a.txt', '@@ -1 +1 @@\n-x\n+y\n');
    const b = section('dir/with space.md', '@@ -1 +1 @@\n-p\n+q\n');
    const files = [
      { path: 'a.txt', action: 'restore' as const, external: false },
      { path: 'dir/with space.md', action: 'restore' as const, external: true },
    ];
    const map = patchByFile(a + b, files);
    expect(map.get('a.txt')).toBe(a);
    expect(map.get('dir/with space.md')).toBe(b);
  });

  it('a file cut off by the size limit, or a file a section does not name, has no section', () => {
    const a = section('a.txt', '@@ -1 +1 @@\n-x\n+y\n');
    const files = [
      { path: 'a.txt', action: 'restore' as const, external: false },
      { path: 'b.txt', action: 'delete' as const, external: false },
    ];
    const map = patchByFile(a, files);
    expect([...map.keys()]).toEqual(['a.txt']);
    // A section for another name is never shown as b.txt's.
    expect(patchByFile(section('c.txt', '@@ -1 +1 @@\n-1\n+2\n'), files).size).toBe(0);
  });
});
