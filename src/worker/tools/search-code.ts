import { SearchCodeInput } from '../../shared/tools';
import { searchWithJs } from './search-fallback';
import { formatMatches } from './search-format';
import { resolveSearchScope } from './search-scope';
import { searchWithRipgrep } from './ripgrep';
import { defineTool, ok, type RegisteredTool } from './tool';

export function createSearchCodeTool(ripgrepPath: string | null): RegisteredTool {
  return defineTool({
    name: 'search_code',
    input: SearchCodeInput,
    description:
      'Search file contents with a regular expression. Prints `path:line:text` for each matching line, files sorted. ' +
      '`path` limits the search to a folder or file, `glob` to matching file names (e.g. `*.ts`, or `src/**/*.ts`). ' +
      'Files ignored by .gitignore, binary files, `.git/` and `node_modules/` are skipped.',
    timeoutMs: () => 60_000,
    async run(input, ctx) {
      const scope = resolveSearchScope(input.path, ctx);
      const req = { pattern: input.pattern, glob: input.glob, caseInsensitive: input.case_insensitive === true };
      const outcome =
        ripgrepPath === null
          ? searchWithJs(scope, req, ctx.projectRoot, ctx.signal)
          : await searchWithRipgrep(ripgrepPath, scope, req, ctx.projectRoot, ctx.signal);
      return ok(formatMatches(outcome, input.pattern));
    },
  });
}
