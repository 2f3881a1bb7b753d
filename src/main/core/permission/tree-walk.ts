import picomatch from 'picomatch';
import type { TreeRead } from '../shell-analysis/programs/tree-reads';
import { judgePath, type JudgedPath } from '../paths/judged-path';
import type { PathConfinement } from '../paths/path-confinement';

/**
 * The files a reader of a whole tree (src/main/core/shell-analysis/programs/tree-reads.ts) reads under a folder, each as a judged path for the
 * Read rules and the secret-file defaults. The disk is read through the confinement's view (live for the CLI,
 * prefetched for the app's main process: one round per level). Past a bound, what is left is one path the engine
 * cannot place: the defaults ask (it may be a secret) and any Read deny or ask rule may cover it.
 */

const MAX_ENTRIES = 50_000;
const MAX_DEPTH = 32;

/** A file under an already-real folder: its path is real as it is (no link on the way). */
function plainFile(given: string, abs: string, root: string | null): JudgedPath {
  return { given, lexical: abs, real: abs, root, unknown: false, physical: null };
}

/** The program's own filter globs (`--include`, `-g`), matching names as the volume does. */
function matcher(globs: readonly string[], nocase: boolean): ((rel: string, name: string) => boolean) | null {
  if (globs.length === 0) return null;
  const tests = globs.map((g) => ({
    slash: g.includes('/'),
    test: picomatch(g.replace(/^\//, ''), { dot: true, nocase }),
  }));
  return (rel, name) => tests.some((t) => t.test(t.slash ? rel : name));
}

/** Every file `t` reads below `dir` (a folder already judged); [] when `dir` is not a folder. */
export function walkTreeRead(
  t: TreeRead,
  dir: JudgedPath,
  confinement: PathConfinement,
  matters: (absolutePath: string) => boolean = () => true,
): JudgedPath[] {
  const fs = confinement.fs;
  if (dir.unknown || fs.lstat(dir.real)?.isDirectory() !== true) return [];
  fs.prefetchTree?.(dir.real, MAX_ENTRIES);
  const sys = confinement.sys;
  const include = matcher(t.include, sys.foldCase);
  const exclude = matcher(t.exclude, sys.foldCase);
  const excludeDir = matcher(t.excludeDir, sys.foldCase);
  const shown = t.value.replace(/\/+$/, '') || t.value;
  const out: JudgedPath[] = [];
  const visited = new Set<string>([dir.real]);
  // `linked`: reached through a followed link, so where a file really is (and its root) must be judged
  type Folder = { real: string; rel: string; linked: boolean };
  let level: Folder[] = [{ real: dir.real, rel: '', linked: false }];
  let seen = 0;
  for (let depth = 0; level.length > 0; depth++) {
    const next: Folder[] = [];
    for (const folder of level) {
      for (const entry of fs.readdir(folder.real) ?? []) {
        if (t.skipHidden && entry.name.startsWith('.')) continue;
        if (++seen > MAX_ENTRIES || depth >= MAX_DEPTH) {
          const why = `(${seen > MAX_ENTRIES ? 'more than 50000 files' : 'deeper folders'} below ${shown})`;
          return [...out, judgePath(confinement, `${shown}/${why}`, { unknown: true })];
        }
        const rel = folder.rel === '' ? entry.name : `${folder.rel}/${entry.name}`;
        const abs = sys.join(folder.real, entry.name);
        const given = `${shown}/${rel}`;
        const enter = (real: string, linked: boolean): void => {
          if (t.recursive && !excludeDir?.(rel, entry.name) && !visited.has(real)) {
            visited.add(real);
            next.push({ real, rel, linked });
          }
        };
        if (entry.isDirectory()) enter(abs, folder.linked);
        else if (entry.isSymbolicLink()) {
          // a program that does not follow links (grep -r, rg, tar -c, cp -r) reads no link it finds while recursing
          if (!t.followLinks) continue;
          const judged = judgePath(confinement, abs);
          if (fs.lstat(judged.real)?.isDirectory() === true) {
            if (!judged.unknown) enter(judged.real, true);
          } else if (!exclude?.(rel, entry.name) && (include?.(rel, entry.name) ?? true))
            out.push({ ...judged, given });
        } else if (!exclude?.(rel, entry.name) && (include?.(rel, entry.name) ?? true)) {
          const file = folder.linked ? { ...judgePath(confinement, abs), given } : plainFile(given, abs, dir.root);
          if (file.unknown || matters(file.real) || matters(file.lexical)) out.push(file);
        }
      }
    }
    level = next;
  }
  return out;
}
