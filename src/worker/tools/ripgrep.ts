import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { displayPath } from './confined-fs';
import type { SearchRequest } from './search-fallback';
import type { SearchScope } from './search-scope';
import { MAX_SEARCH_MATCHES, stripLineEnd, type SearchMatch, type SearchOutcome } from './search-format';
import { ToolError } from './tool';

/** The first executable `rg` on PATH, or null. */
export function findRipgrep(envPath: string | undefined = process.env.PATH): string | null {
  for (const dir of (envPath ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, process.platform === 'win32' ? 'rg.exe' : 'rg');
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
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

/** Arguments chosen so ripgrep walks like the JS fallback: .gitignore without a git repo, hidden files, no .git. */
export function ripgrepArgs(scope: SearchScope, req: SearchRequest): string[] {
  const args = ['--json', '--no-config', '--hidden', '--no-require-git', '--no-ignore-dot', '--no-ignore-exclude', '--no-ignore-global'];
  args.push('--crlf', '--sort', 'path', '--max-filesize', '10M');
  if (req.caseInsensitive) args.push('--ignore-case');
  if (req.glob !== undefined) args.push('--glob', req.glob);
  args.push('--glob', '!.git', '--glob', '!node_modules');
  args.push('--regexp', req.pattern, '--', scope.isDirectory ? '.' : path.basename(scope.real));
  return args;
}

export function searchWithRipgrep(rgPath: string, scope: SearchScope, req: SearchRequest, projectRoot: string, signal: AbortSignal): Promise<SearchOutcome> {
  const cwd = scope.isDirectory ? scope.real : path.dirname(scope.real);
  return new Promise((resolve, reject) => {
    const child = spawn(rgPath, ripgrepArgs(scope, req), { cwd, stdio: ['ignore', 'pipe', 'pipe'], signal });
    const matches: SearchMatch[] = [];
    let capped = false;
    let pending = '';
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
      if (matches.length >= MAX_SEARCH_MATCHES) {
        capped = true;
        child.kill('SIGTERM');
        return;
      }
      const abs = path.resolve(cwd, rgText(data.path));
      matches.push({ path: displayPath(abs, projectRoot), line: data.line_number ?? 0, text: stripLineEnd(rgText(data.lines)) });
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      pending += chunk;
      let nl: number;
      while ((nl = pending.indexOf('\n')) !== -1) {
        onLine(pending.slice(0, nl));
        pending = pending.slice(nl + 1);
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < 4_000) stderr += chunk;
    });
    child.on('error', (err) => reject(signal.aborted ? new ToolError('search cancelled') : err));
    child.on('close', (code) => {
      if (pending !== '') onLine(pending);
      if (capped || code === 0 || code === 1) return resolve({ matches, capped });
      if (matches.length > 0) return resolve({ matches, capped });
      reject(new ToolError(`ripgrep failed (exit ${code ?? 'signal'}): ${stderr.trim() || 'no message'}`));
    });
  });
}
