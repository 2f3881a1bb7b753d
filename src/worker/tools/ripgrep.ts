import { spawn } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { LineSplitter } from '../../shared/line-splitter';
import { displayPath } from './confined-fs';
import type { SearchRequest } from './search-fallback';
import type { SearchScope } from './search-scope';
import { MAX_SEARCH_MATCHES, stripLineEnd, type SearchMatch, type SearchOutcome } from './search-format';
import { ToolError } from './tool';

/** The first executable `rg` on PATH, or null. */
export async function findRipgrep(envPath: string | undefined = process.env.PATH): Promise<string | null> {
  for (const dir of (envPath ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, process.platform === 'win32' ? 'rg.exe' : 'rg');
    try {
      await fsp.access(candidate, fs.constants.X_OK);
      if ((await fsp.stat(candidate)).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

const RgText = z.object({ text: z.string().optional(), bytes: z.string().optional() });
const RgMatchLine = z.object({
  type: z.literal('match'),
  data: z.object({ path: RgText, lines: RgText, line_number: z.number().int().nullable() }),
});

function rgText(t: z.infer<typeof RgText>): string {
  if (t.text !== undefined) return t.text;
  return Buffer.from(t.bytes ?? '', 'base64').toString('utf8');
}

/** Arguments chosen so ripgrep walks like the JS fallback: .gitignore (also without a git repo) and .git/info/exclude, hidden files, no .git. */
function walkArgs(req: SearchRequest): string[] {
  const args = ['--no-config', '--hidden', '--no-require-git', '--no-ignore-dot', '--no-ignore-global'];
  args.push('--sort', 'path', '--max-filesize', '10M');
  if (req.glob !== undefined) args.push('--glob', req.glob);
  args.push('--glob', '!.git', '--glob', '!node_modules');
  return args;
}

function target(scope: SearchScope): string {
  return scope.isDirectory ? '.' : path.basename(scope.real);
}

function searchCwd(scope: SearchScope): string {
  return scope.isDirectory ? scope.real : path.dirname(scope.real);
}

function ripgrepArgs(scope: SearchScope, req: SearchRequest): string[] {
  const args = ['--json', ...walkArgs(req), '--crlf'];
  if (req.caseInsensitive) args.push('--ignore-case');
  args.push('--regexp', req.pattern, '--', target(scope));
  return args;
}

/** The files ripgrep would search (`rg --files`, NUL-separated), as absolute paths, in its order. */
export function listFilesWithRipgrep(
  rgPath: string,
  scope: SearchScope,
  req: SearchRequest,
  signal: AbortSignal,
): Promise<string[]> {
  if (!scope.isDirectory) return Promise.resolve([scope.real]);
  const cwd = searchCwd(scope);
  return new Promise((resolve, reject) => {
    const child = spawn(rgPath, ['--files', '--null', ...walkArgs(req), '--', target(scope)], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      signal,
    });
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 4_000) stderr += chunk;
    });
    child.on('error', (err) => reject(signal.aborted ? new ToolError('search cancelled') : err));
    child.on('close', (code) => {
      // 1: no files at all.
      if (code !== 0 && code !== 1)
        return reject(
          new ToolError(`ripgrep failed to list files (exit ${code ?? 'signal'}): ${stderr.trim() || 'no message'}`),
        );
      const out = Buffer.concat(chunks);
      const files: string[] = [];
      let start = 0;
      for (let nul = out.indexOf(0, start); nul !== -1; nul = out.indexOf(0, start)) {
        if (nul > start) files.push(path.resolve(cwd, out.subarray(start, nul).toString('utf8')));
        start = nul + 1;
      }
      resolve(files);
    });
  });
}

/**
 * Runs the search; only matches in `allowed` (absolute paths: listed by listFilesWithRipgrep, then filtered by
 * main's read check) are kept and counted. A match anywhere else (a file that appeared since, a path that does not
 * resolve to a listed file) is dropped.
 */
export function searchWithRipgrep(
  rgPath: string,
  scope: SearchScope,
  req: SearchRequest,
  allowed: ReadonlySet<string>,
  projectRoot: string,
  signal: AbortSignal,
): Promise<SearchOutcome> {
  const cwd = searchCwd(scope);
  return new Promise((resolve, reject) => {
    const child = spawn(rgPath, ripgrepArgs(scope, req), { cwd, stdio: ['ignore', 'pipe', 'pipe'], signal });
    const matches: SearchMatch[] = [];
    let capped = false;
    let stderr = '';
    const onLine = (line: string): void => {
      if (capped || !line.startsWith('{"type":"match"')) return;
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch {
        return;
      }
      const parsed = RgMatchLine.safeParse(json);
      if (!parsed.success) return;
      const { data } = parsed.data;
      const abs = path.resolve(cwd, rgText(data.path));
      if (!allowed.has(abs)) return;
      if (matches.length >= MAX_SEARCH_MATCHES) {
        capped = true;
        child.kill('SIGTERM');
        return;
      }
      matches.push({
        path: displayPath(abs, projectRoot),
        line: data.line_number ?? 0,
        text: stripLineEnd(rgText(data.lines)),
      });
    };
    const lines = new LineSplitter(onLine);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => lines.push(chunk));
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 4_000) stderr += chunk;
    });
    child.on('error', (err) => reject(signal.aborted ? new ToolError('search cancelled') : err));
    child.on('close', (code) => {
      const rest = lines.end();
      if (rest !== '') onLine(rest);
      if (capped || code === 0 || code === 1) return resolve({ matches, capped });
      if (matches.length > 0) return resolve({ matches, capped });
      reject(new ToolError(`ripgrep failed (exit ${code ?? 'signal'}): ${stderr.trim() || 'no message'}`));
    });
  });
}
