import path from 'node:path';
import picomatch from 'picomatch';
import { displayPath } from './confined-fs';
import type { SearchScope } from './search-scope';
import { MAX_SEARCH_FILE_BYTES, MAX_SEARCH_MATCHES, type SearchMatch, type SearchOutcome } from './search-format';
import { ToolError } from './tool';
import { readSmallRegularFile } from './small-file';
import { walkFiles } from './walk';

export interface SearchRequest {
  pattern: string;
  glob?: string | undefined;
  caseInsensitive: boolean;
}

export function compileRegex(pattern: string, caseInsensitive: boolean): RegExp {
  const flags = caseInsensitive ? 'i' : '';
  try {
    return new RegExp(pattern, flags + 'u');
  } catch {
    try {
      return new RegExp(pattern, flags);
    } catch (err) {
      throw new ToolError(
        `invalid regular expression /${pattern}/: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }
}

/** Like ripgrep's `-g`: a glob without a slash matches the file name at any depth. */
function globFilter(glob: string | undefined): (relToStart: string) => boolean {
  if (glob === undefined) return () => true;
  const negated = glob.startsWith('!');
  const body = negated ? glob.slice(1) : glob;
  const isMatch = picomatch(body, { dot: true, basename: !body.includes('/') });
  return negated ? (rel) => !isMatch(rel) : (rel) => isMatch(rel);
}

/** A file the search scans: small, regular, not a symlink, not binary (a NUL byte). */
async function readSearchable(abs: string): Promise<Buffer | null> {
  const buf = await readSmallRegularFile(abs, MAX_SEARCH_FILE_BYTES);
  return buf === null || buf.includes(0) ? null : buf;
}

function searchBuffer(buf: Buffer, regex: RegExp, shown: string, out: SearchMatch[]): boolean {
  const lines = buf.toString('utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (!regex.test(text)) continue;
    if (out.length >= MAX_SEARCH_MATCHES) return false;
    out.push({ path: shown, line: i + 1, text });
  }
  return true;
}

/** The files the JS search would read, in walk order (symlinks are not followed during a walk, like ripgrep). */
export async function listFilesWithJs(scope: SearchScope, req: SearchRequest, signal: AbortSignal): Promise<string[]> {
  if (!scope.isDirectory) return [scope.real];
  const wanted = globFilter(req.glob);
  const files: string[] = [];
  await walkFiles(
    scope.ignoreRoot,
    scope.real,
    (entry) => {
      if (entry.isSymlink) return true;
      if (wanted(path.relative(scope.real, entry.abs).split(path.sep).join('/'))) files.push(entry.abs);
      return true;
    },
    signal,
  );
  return files;
}

/**
 * The JS search used when ripgrep is not installed: reads only `files` (listed by listFilesWithJs, then filtered
 * by main's read check), in that order; same result format as ripgrep.
 */
export async function searchWithJs(
  files: readonly string[],
  req: SearchRequest,
  projectRoot: string,
  signal: AbortSignal,
): Promise<SearchOutcome> {
  const regex = compileRegex(req.pattern, req.caseInsensitive);
  const matches: SearchMatch[] = [];
  for (const abs of files) {
    signal.throwIfAborted();
    const buf = await readSearchable(abs);
    if (buf === null) continue;
    if (!searchBuffer(buf, regex, displayPath(abs, projectRoot), matches)) return { matches, capped: true };
  }
  return { matches, capped: false };
}
