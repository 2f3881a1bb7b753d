import path from 'node:path';
import picomatch from 'picomatch';

/**
 * Files whose reading asks by default (permission-model.md, "Defaults"): secrets and credentials. Names match in
 * any folder; `.ssh/` and `.aws/credentials` anywhere in the path.
 */
export const NAME_PATTERNS: readonly string[] = [
  '.env',
  '.env.*',
  '*.pem',
  '*.key',
  'id_rsa*',
  'id_ed25519*',
  '.npmrc',
  '.netrc',
  '.git-credentials',
  '*.p12',
  '*.pfx',
];
const PATH_PATTERNS = ['**/.ssh/**', '**/.aws/credentials'];

const nocase = process.platform === 'darwin' || process.platform === 'win32';
const nameMatch = picomatch([...NAME_PATTERNS], { dot: true, nocase });
const pathMatch = picomatch(PATH_PATTERNS, { dot: true, nocase });

export function isSensitiveFile(absolutePath: string): boolean {
  const base = path.basename(absolutePath);
  if (base && nameMatch(base)) return true;
  const root = path.parse(absolutePath).root;
  return pathMatch(absolutePath.slice(root.length).split(path.sep).join('/'));
}

/** Folders whose files run code or configure tools: writing under them asks by default. */
export const CONFIG_FOLDERS: readonly string[] = ['.git', '.vscode', '.idea', '.husky', '.claude'];

/** The config folder `relativePath` (relative to an allowed root) lies under, or null. */
export function configFolderOf(relativePath: string): string | null {
  const segments = relativePath.split(/[\\/]+/).slice(0, -1);
  const hit = segments.find((s) => CONFIG_FOLDERS.includes(nocase ? s.toLowerCase() : s));
  return hit ?? null;
}

/** Example names of every sensitive kind, to tell whether a search filter glob (`.env*`, `**\/*.pem`) targets secrets. */
const SENSITIVE_EXAMPLES = [
  '.env',
  '.env.local',
  'a.pem',
  'a.key',
  'id_rsa',
  'id_ed25519',
  '.npmrc',
  '.netrc',
  '.git-credentials',
  'a.p12',
  'a.pfx',
  '.ssh/id_rsa',
  '.aws/credentials',
];

/** True when a search's file filter glob selects secret files (judged on example names, not on the disk). */
export function globTargetsSensitiveFiles(glob: string): boolean {
  const last = glob.split('/').filter(Boolean);
  if (last.length === 0) return false;
  const tail2 = last.slice(-2).join('/');
  const isMatch = picomatch([glob, last[last.length - 1]!, tail2], { dot: true, nocase });
  return SENSITIVE_EXAMPLES.some((name) => isMatch(name) && !isMatch('index.ts') && !isMatch('README.md'));
}
