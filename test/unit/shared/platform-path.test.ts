import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pathSystem } from '../../../src/shared/node/platform-path';
import { volumeFoldsCase, type ProbeStat } from '../../../src/shared/node/volume-case';

const posix = pathSystem('posix', false);
const win = pathSystem('win32', true);
const winExact = pathSystem('win32', false);

describe('POSIX paths are node path.posix, unchanged', () => {
  const segment = fc.constantFrom('a', 'B', '.', '..', '', 'x y', '.env', '..a', '~', 'c:');
  const anyPath = fc
    .tuple(fc.boolean(), fc.array(segment, { maxLength: 6 }))
    .map(([abs, s]) => (abs ? '/' : '') + s.join('/'));

  it('normalize, resolve, join, dirname, basename, isAbsolute', () => {
    fc.assert(
      fc.property(anyPath, anyPath, (a, b) => {
        expect(posix.normalize(a)).toBe(path.posix.normalize(a));
        expect(posix.resolve('/base', a, b)).toBe(path.posix.resolve('/base', a, b));
        expect(posix.join(a, b)).toBe(path.posix.join(a, b));
        expect(posix.dirname(a)).toBe(path.posix.dirname(a));
        expect(posix.basename(a)).toBe(path.posix.basename(a));
        expect(posix.isAbsolute(a)).toBe(path.posix.isAbsolute(a));
        expect(posix.isRelative(a)).toBe(!path.posix.isAbsolute(a));
        expect(posix.fromShell(a)).toBe(a);
        expect(posix.canonicalRulePattern(a)).toBe(a);
        expect(posix.ambiguity(a)).toBeNull();
      }),
    );
  });

  it('containment is path.relative that does not climb, as before', () => {
    fc.assert(
      fc.property(anyPath, anyPath, (a, b) => {
        const p = `/${a}`;
        const root = `/${b}`;
        const rel = path.posix.relative(root, p);
        const escapes = rel === '..' || rel.startsWith('../') || path.posix.isAbsolute(rel);
        expect(posix.relativeInside(p, root)).toBe(escapes ? null : rel);
      }),
    );
  });
});

describe('Windows paths', () => {
  it('are canonicalised as the Win32 layer reads them before opening a file', () => {
    const table: [string, string][] = [
      ['c:/Proj//src/../a.ts', 'C:\\Proj\\a.ts'],
      ['C:\\proj\\..\\..\\Windows', 'C:\\Windows'],
      ['\\\\?\\C:\\proj\\.git\\hooks', 'C:\\proj\\.git\\hooks'],
      ['//?/c:/proj', 'C:\\proj'],
      ['\\\\.\\C:\\proj', 'C:\\proj'],
      ['\\??\\C:\\proj', 'C:\\proj'],
      ['\\\\?\\UNC\\srv\\share\\x', '\\\\srv\\share\\x'],
      ['//srv/share/x/../y', '\\\\srv\\share\\y'],
      ['\\\\srv\\share\\..\\..\\x', '\\\\srv\\share\\x'],
      ['\\\\localhost\\c$\\proj', 'C:\\proj'],
      ['\\\\127.0.0.1\\D$', 'D:\\'],
      ['C:\\proj\\.env::$DATA', 'C:\\proj\\.env'],
      ['C:\\proj\\.gatehouse::$INDEX_ALLOCATION\\x', 'C:\\proj\\.gatehouse\\x'],
      ['C:\\proj\\.env. . ', 'C:\\proj\\.env'],
      ['C:\\proj\\.git \\hooks', 'C:\\proj\\.git\\hooks'],
      ['C:\\proj\\...\\x', 'C:\\proj\\x'],
      ['C:\\proj\\.. \\x', 'C:\\proj\\x'],
      ['C:', 'C:'],
      ['c:x', 'C:x'],
      ['\\x', '\\x'],
      ['a\\b/c', 'a\\b\\c'],
      ['', '.'],
    ];
    for (const [p, want] of table) expect(win.normalize(p), p).toBe(want);
  });

  it('resolve never asks this process where it is: roots come from the base', () => {
    expect(win.resolve('C:\\proj', 'src\\a.ts')).toBe('C:\\proj\\src\\a.ts');
    expect(win.resolve('C:\\proj', '\\Windows')).toBe('C:\\Windows');
    expect(win.resolve('C:\\proj', 'c:src')).toBe('C:\\proj\\src');
    expect(win.resolve('C:\\proj', 'D:src')).toBe('D:\\src');
    expect(win.resolve('C:\\proj', 'D:\\x', '..\\y')).toBe('D:\\y');
    expect(win.resolve('\\\\srv\\share\\proj', '\\x')).toBe('\\\\srv\\share\\x');
    if (process.platform !== 'win32') expect(() => win.resolve('relative')).toThrow(/no folder/);
    expect(win.isAbsolute('C:x')).toBe(false);
    expect(win.isRelative('C:x')).toBe(false);
    expect(win.isAbsolute('\\x')).toBe(true);
    expect(win.isRelative('x\\y')).toBe(true);
  });

  it('containment is by whole names, drive letters and shares in any case, names as the volume folds them', () => {
    expect(win.relativeInside('c:/PROJ/.GATEHOUSE/settings.yaml', 'C:\\proj')).toBe('.GATEHOUSE\\settings.yaml');
    expect(winExact.relativeInside('c:/proj/.gatehouse', 'C:\\proj')).toBe('.gatehouse');
    expect(winExact.isInside('C:\\PROJ\\x', 'C:\\proj')).toBe(false);
    expect(win.isInside('C:\\projX', 'C:\\proj')).toBe(false);
    expect(win.isInside('D:\\proj', 'C:\\proj')).toBe(false);
    expect(win.isInside('\\\\SRV\\Share\\proj\\x', '\\\\srv\\share\\proj')).toBe(true);
    expect(win.isInside('\\\\srv\\other\\proj', '\\\\srv\\share\\proj')).toBe(false);
    expect(win.isInside('C:\\proj\\..\\..\\Windows', 'C:\\proj')).toBe(false);
    expect(win.isInside('C:\\proj', 'C:\\')).toBe(true);
    expect(win.same('c:\\PROJ', 'C:\\proj\\')).toBe(true);
    expect(winExact.same('c:\\PROJ', 'C:\\proj')).toBe(false);
    expect(winExact.same('c:\\proj', 'C:\\proj')).toBe(true);
  });

  it('fold names as NTFS and APFS do: simple upper case, then lower', () => {
    expect(win.nameKey('.GATEHOUSE')).toBe('.gatehouse');
    expect(win.nameKey('.\u017fsh')).toBe('.ssh');
    expect(win.nameKey('\u212aey.pem')).toBe('key.pem');
    expect(win.nameKey('stra\u00dfe')).toBe('stra\u00dfe');
    expect(winExact.nameKey('.GATEHOUSE')).toBe('.GATEHOUSE');
    expect(pathSystem('posix', true).nameKey('.g\u200cit')).toBe('.git');
  });

  it('have a rule form: /c/Users/alice, //srv/share/x', () => {
    expect(win.toRuleForm('C:\\Users\\alice')).toBe('/c/Users/alice');
    expect(win.toRuleForm('c:/')).toBe('/c');
    expect(win.toRuleForm('\\\\?\\UNC\\srv\\share\\x')).toBe('//srv/share/x');
    expect(posix.toRuleForm('/home/alice')).toBe('/home/alice');
  });

  it('rules in Windows spellings are rewritten to the rule form; `//Users` is a share, not every drive', () => {
    const table: [string, string][] = [
      ['//C:/Users/**', '//c/Users/**'],
      ['//c:', '//c'],
      ['C:\\Users\\alice\\**', '//c/Users/alice/**'],
      ['c:/Users/**', '//c/Users/**'],
      ['//C/Users/**', '//c/Users/**'],
      ['\\\\?\\C:\\x', '//c/x'],
      ['\\\\srv\\share\\**', '///srv/share/**'],
      ['\\\\?\\UNC\\srv\\share', '///srv/share'],
      ['//Users/**', '///Users/**'],
      ['///srv/share', '///srv/share'],
      ['//**', '//**'],
      ['//{c,d}/**', '//{c,d}/**'],
      ['src\\secret\\**', 'src/secret/**'],
      ['~\\.ssh\\**', '~/.ssh/**'],
      ['.env', '.env'],
      ['c/x', 'c/x'],
    ];
    for (const [rule, want] of table) expect(win.canonicalRulePattern(rule), rule).toBe(want);
    for (const [rule] of table)
      expect(win.canonicalRulePattern(win.canonicalRulePattern(rule)), rule).toBe(win.canonicalRulePattern(rule));
  });

  it("read Git Bash's words: /c/x is C:\\x, a drive after a folder starts over, the shell's own tree is unknown", () => {
    const table: [string, string | null][] = [
      ['/c/proj/x', 'C:\\proj/x'],
      ['/C', 'C:\\'],
      ['sub/C:/x', 'C:/x'],
      ['sub/C:\\x', 'C:\\x'],
      ['a/\\\\srv\\share', '\\\\srv\\share'],
      ['a/x:y', 'a/x:y'],
      ['\\\\?\\C:\\x', 'C:\\x'],
      ['//srv/share', '//srv/share'],
      ['/tmp/x', null],
      ['/', null],
      ['C:/x', 'C:/x'],
      ['src/a.ts', 'src/a.ts'],
    ];
    for (const [word, want] of table) expect(win.fromShell(word), word).toBe(want);
  });

  it('say when an 8.3 short name may stand for another file', () => {
    expect(win.ambiguity('GATEHO~1\\settings.yaml')).toMatch(/GATEHO~1.*short/);
    expect(win.ambiguity('C:\\proj\\ENV~1')).toMatch(/ENV~1/);
    expect(win.ambiguity('C:\\proj\\a~b.txt')).toBeNull();
    expect(win.ambiguity('C:\\proj\\...\\x')).toMatch(/this folder or its parent/);
    expect(win.ambiguity('C:\\proj\\.. \\x')).toMatch(/this folder or its parent/);
    expect(win.ambiguity('C:\\proj\\..\\x')).toBeNull();
    expect(win.ambiguity('C:\\proj\\src\\a.ts')).toBeNull();
  });
});

describe('the volume probe', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-probe-')));
    fs.mkdirSync(path.join(dir, 'Proj', '123'), { recursive: true });
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** A stat that answers as a volume folding case would (the entry of any case is found) or not. */
  const fakeStat =
    (folds: boolean, seen: string[] = []): ProbeStat =>
    async (p) => {
      seen.push(p);
      const parent = path.dirname(p);
      const name = folds
        ? fs.readdirSync(parent).find((n) => n.toLowerCase() === path.basename(p).toLowerCase())
        : path.basename(p);
      return name !== undefined && fs.existsSync(path.join(parent, name)) ? fs.statSync(path.join(parent, name)) : null;
    };

  it('asks the volume, walking up past names without letters', async () => {
    const sys = pathSystem('posix', false);
    const seen: string[] = [];
    expect(await volumeFoldsCase(path.join(dir, 'Proj', '123'), sys, fakeStat(false, seen))).toBe(false);
    expect(seen).toContain(path.join(dir, 'pROJ'));
    expect(await volumeFoldsCase(path.join(dir, 'proj', '123'), sys, fakeStat(true))).toBe(true);
  });

  it.runIf(process.platform === 'linux')(
    "this machine's temporary folder (ext4, tmpfs) does not fold case",
    async () => {
      expect(await volumeFoldsCase(path.join(dir, 'Proj'), pathSystem('posix', false))).toBe(false);
    },
  );

  it('a folder whose other-case twin is another folder does not fold case', async () => {
    fs.mkdirSync(path.join(dir, 'Twin'));
    fs.mkdirSync(path.join(dir, 'tWIN'));
    expect(await volumeFoldsCase(path.join(dir, 'Twin'), pathSystem('posix', false), fakeStat(false))).toBe(false);
  });

  it('falls back to the usual answer when nothing can be asked', async () => {
    expect(await volumeFoldsCase('/', pathSystem('posix', false), fakeStat(true))).toBe(process.platform !== 'linux');
    expect(await volumeFoldsCase('C:\\', pathSystem('win32', false), fakeStat(false))).toBe(true);
  });
});
