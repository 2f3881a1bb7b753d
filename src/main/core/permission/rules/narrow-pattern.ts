import { HOST_PATHS, type PathSystem } from '../../../../shared/node/platform-path';
import { SECRET_PATHS } from '../../../../shared/secret-paths';
import { CONFIG_FOLDERS, isSensitiveFile, NAME_PATTERNS } from '../sensitive-files';

/**
 * Which allow rules may unlock a secret or a code-running folder (contract "Defaults"): only a rule whose pattern
 * matches nothing but such files. `Read`, `Read(**)`, `Read(src/**)` or a bare `Edit` reach `.env` and `.git/hooks/`
 * among everything else, so they never unlock them; `Read(.env)`, `Read(**\/*.pem)`, `Read(~/.ssh/**)` and
 * `Edit(.vscode/settings.json)` do. Decided on the pattern alone, conservatively: a pattern this cannot prove narrow
 * counts as broad (the defaults then ask, and the person can add a narrow rule).
 */

/** Glob characters of a segment; braces and extglobs are handled (or refused) before this is asked. */
const GLOB = /[*?[\]]/;
const COMPLEX = /[()!+@\\]/;

/**
 * The secret-name classes of the defaults' name list: exact names, literal prefixes (`id_rsa*`), suffixes (`*.pem`).
 * The list is in lower case, which is how a volume that folds case compares every name.
 */
const EXACT = NAME_PATTERNS.filter((p) => !GLOB.test(p));
const PREFIXES = NAME_PATTERNS.filter((p) => /^[^*?[\]]+\*$/.test(p)).map((p) => p.slice(0, -1));
const SUFFIXES = NAME_PATTERNS.filter((p) => /^\*[^*?[\]]+$/.test(p)).map((p) => p.slice(1));
/** The secret paths of the same table: folders (`.ssh`, everything below) and files by their path (`.aws/credentials`). */
const SECRET_FOLDERS = SECRET_PATHS.filter((p) => p.endsWith('/') && !p.slice(0, -1).includes('/')).map((p) =>
  p.slice(0, -1),
);
const SECRET_FILES = SECRET_PATHS.filter((p) => !p.endsWith('/'));

/** `a{b,c}d` as `abd`, `acd` (one level; null when nested or unbalanced). */
function expandBraces(segment: string): string[] | null {
  const open = segment.indexOf('{');
  if (open < 0) return segment.includes('}') ? null : [segment];
  const close = segment.indexOf('}', open);
  if (close < 0) return null;
  const inner = segment.slice(open + 1, close);
  if (inner.includes('{')) return null;
  const rest = expandBraces(segment.slice(close + 1));
  if (rest === null) return null;
  return inner.split(',').flatMap((alt) => rest.map((r) => `${segment.slice(0, open)}${alt}${r}`));
}

/** Every name this one segment matches is a secret's name (by the defaults' list). */
function segmentOnlySecretNames(segment: string, sys: PathSystem): boolean {
  const alternatives = expandBraces(segment);
  if (alternatives === null) return false;
  return alternatives.every((alt) => {
    if (alt === '' || COMPLEX.test(alt)) return false;
    const name = sys.nameKey(alt);
    if (!GLOB.test(name)) return EXACT.includes(name) || isSensitiveFile(name, sys);
    const first = name.search(GLOB);
    let last = -1;
    for (let i = 0; i < name.length; i++) if (GLOB.test(name[i] as string)) last = i;
    const prefix = name.slice(0, first);
    const suffix = name.slice(last + 1);
    return PREFIXES.some((p) => prefix.startsWith(p)) || SUFFIXES.some((s) => suffix.endsWith(s));
  });
}

/** The pattern's segments, its anchor (`//`, `~/`, `/`, `./`) removed; a trailing `/` means everything below. */
function segments(specifier: string, sys: PathSystem): { parts: string[]; anywhere: boolean } {
  let spec = sys.canonicalRulePattern(specifier.trim());
  if (spec.endsWith('/')) spec += '**';
  const anywhere = !spec.includes('/');
  for (const anchor of ['//', '~/', './', '/']) {
    if (spec.startsWith(anchor)) {
      spec = spec.slice(anchor.length);
      break;
    }
  }
  return { parts: spec.split('/').filter((s) => s !== '' && s !== '.'), anywhere };
}

/**
 * A Read pattern that matches nothing but secret files: its last segment only matches secret names (`.env`,
 * `*.pem`, `id_rsa*`, `.env.*`; `.env*` also matches `.envrc`, so it does not), or it lies under a `.ssh` folder,
 * or it is `.aws/credentials`. A name pattern without a slash (`.ssh`) also covers everything below such a folder.
 */
export function matchesOnlySecrets(specifier: string, sys: PathSystem = HOST_PATHS): boolean {
  const fold = (s: string): string => sys.nameKey(s);
  const { parts, anywhere } = segments(specifier, sys);
  const last = parts[parts.length - 1];
  if (last === undefined) return false;
  if (anywhere) return segmentOnlySecretNames(last, sys) || SECRET_FOLDERS.includes(fold(last));
  const folders = parts.slice(0, -1).map(fold);
  if (folders.some((f) => SECRET_FOLDERS.includes(f))) return true;
  const tail = [...folders, fold(last)].join('/');
  if (SECRET_FILES.some((f) => tail === f || tail.endsWith(`/${f}`))) return true;
  return last !== '**' && segmentOnlySecretNames(last, sys);
}

/**
 * An Edit pattern that matches nothing but files under a code-running folder (`.git/`, `.vscode/`, `.idea/`,
 * `.husky/`, `.claude/`): one of its folders is literally such a name (`.vscode/settings.json`, `**\/.git/hooks/*`),
 * or it is such a name without a slash (`.vscode`: everything below any `.vscode/`).
 */
export function matchesOnlyCodeFolders(specifier: string, sys: PathSystem = HOST_PATHS): boolean {
  const { parts, anywhere } = segments(specifier, sys);
  const last = parts[parts.length - 1];
  if (last === undefined) return false;
  if (anywhere) return CONFIG_FOLDERS.includes(sys.nameKey(last));
  return parts.slice(0, -1).some((p) => CONFIG_FOLDERS.includes(sys.nameKey(p)));
}
