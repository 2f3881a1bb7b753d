import { SearchCodeInput } from '../../shared/tools';
import { displayPath } from './confined-fs';
import { splitReadable, withLeftOutNote } from './read-filter';
import { compileRegex, listFilesWithJs, searchWithJs } from './search-fallback';
import { formatMatches } from './search-format';
import { resolveSearchScope } from './search-scope';
import { listFilesWithRipgrep, searchWithRipgrep } from './ripgrep';
import { defineTool, ok, type RegisteredTool } from './tool';

/** `ripgrep`: its path, `null` for the JS search, or a lookup of `rg` on PATH (done once, on the first search). */
export function createSearchCodeTool(ripgrep: string | null | (() => Promise<string | null>)): RegisteredTool {
  let found: Promise<string | null> | null = null;
  const findRipgrepOnce = (): Promise<string | null> => {
    if (typeof ripgrep !== 'function') return Promise.resolve(ripgrep);
    found ??= ripgrep();
    return found;
  };
  return defineTool({
    name: 'search_code',
    input: SearchCodeInput,
    description:
      'Search file contents with a regular expression. Prints `path:line:text` for each matching line, files sorted. ' +
      '`path` limits the search to a folder or file, `glob` to matching file names (e.g. `*.ts`, or `src/**/*.ts`). ' +
      'Files ignored by .gitignore, binary files, `.git/` and `node_modules/` are skipped, and so are files you may ' +
      'not read without asking (the result names them).',
    timeoutMs: () => 60_000,
    async run(input, ctx) {
      const scope = await resolveSearchScope(input.path, ctx);
      const ripgrepPath = await findRipgrepOnce();
      const req = { pattern: input.pattern, glob: input.glob, caseInsensitive: input.case_insensitive === true };
      if (ripgrepPath === null) compileRegex(req.pattern, req.caseInsensitive); // a bad pattern fails before any work
      // Every file the search would read is judged first (by name, never by content: whether a hidden file
      // matched must not show), so the cap counts readable matches only.
      const files =
        ripgrepPath === null
          ? await listFilesWithJs(scope, req, ctx.signal)
          : await listFilesWithRipgrep(ripgrepPath, scope, req, ctx.signal);
      const shown = files.map((abs) => displayPath(abs, ctx.projectRoot));
      const split = await splitReadable(shown, ctx.readable, ctx.signal);
      const readable = files.filter((_, i) => split.visible.has(shown[i] ?? ''));
      const outcome =
        ripgrepPath === null
          ? await searchWithJs(readable, req, ctx.projectRoot, ctx.signal)
          : await searchWithRipgrep(ripgrepPath, scope, req, new Set(readable), ctx.projectRoot, ctx.signal);
      return ok(withLeftOutNote(formatMatches(outcome, input.pattern), split.hidden));
    },
  });
}
