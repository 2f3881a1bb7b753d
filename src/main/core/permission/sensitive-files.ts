import picomatch from 'picomatch';
import { HOST_PATHS, type PathSystem } from '../../../shared/node/platform-path';
import { SECRET_FILE_NAMES, SECRET_PATHS } from '../../../shared/secret-paths';

/**
 * Files whose reading asks by default (permission-model.md, "Defaults"): secrets and credentials, from the table the
 * sandbox hides its secrets by (src/shared/secret-paths.ts). Names match in any folder; the secret paths (`.ssh/`,
 * `.aws/credentials`) anywhere in the path.
 */
export const NAME_PATTERNS = SECRET_FILE_NAMES;
const PATH_PATTERNS = SECRET_PATHS.map((p) => (p.endsWith('/') ? `**/${p}**` : `**/${p}`));

/** The name and path matchers, compiled once for each answer to "does the volume fold case". */
const matchers = [false, true].map((nocase) => ({
  name: picomatch([...NAME_PATTERNS], { dot: true, nocase }),
  path: picomatch(PATH_PATTERNS, { dot: true, nocase }),
}));

/**
 * A secret by its name or folder, as the volume compares names: on one that folds case `.ENV` and `.SSH/x` are
 * `.env` and `.ssh/x` (the text is folded first, so `.ſsh` and other spellings such a volume takes for `.ssh` count).
 */
export function isSensitiveFile(absolutePath: string, sys: PathSystem = HOST_PATHS): boolean {
  const match = matchers[sys.foldCase ? 1 : 0]!;
  const base = sys.nameKey(sys.basename(absolutePath));
  if (base && match.name(base)) return true;
  const below =
    sys.flavor === 'posix' ? absolutePath.slice(sys.root(absolutePath).length) : sys.segments(absolutePath).join('/');
  return match.path(sys.nameKey(below));
}

/** Folders whose files run code or configure tools: writing under them asks by default. */
export const CONFIG_FOLDERS: readonly string[] = ['.git', '.vscode', '.idea', '.husky', '.claude'];

/** The config folder `relativePath` (relative to an allowed root) lies under, or null. */
export function configFolderOf(relativePath: string, sys: PathSystem = HOST_PATHS): string | null {
  const segments = relativePath.split(/[\\/]+/).slice(0, -1);
  const hit = segments.find((s) => CONFIG_FOLDERS.includes(sys.nameKey(s)));
  return hit ?? null;
}

/**
 * Example names of every sensitive kind, to tell whether a search filter glob (`.env*`, `**\/*.pem`) targets secrets:
 * each name pattern with its wildcards empty and filled (`id_rsa`, `id_rsaa`), and a file in each secret path.
 */
const SENSITIVE_EXAMPLES = [
  ...SECRET_FILE_NAMES.flatMap((n) => [n.replace(/\*/g, ''), n.replace(/\*/g, 'a')]).filter(
    (n) => n !== '' && !n.endsWith('.'),
  ),
  ...SECRET_PATHS.map((p) => (p.endsWith('/') ? `${p}id_rsa` : p)),
];

/** True when a search's file filter glob selects secret files (judged on example names, not on the disk). */
export function globTargetsSensitiveFiles(glob: string, sys: PathSystem = HOST_PATHS): boolean {
  const last = glob.split('/').filter(Boolean);
  if (last.length === 0) return false;
  const tail2 = last.slice(-2).join('/');
  const isMatch = picomatch([glob, last[last.length - 1]!, tail2], { dot: true, nocase: sys.foldCase });
  return SENSITIVE_EXAMPLES.some((name) => isMatch(name) && !isMatch('index.ts') && !isMatch('README.md'));
}
