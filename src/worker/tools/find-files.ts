import { FindFilesInput } from '../../shared/tools';
import path from 'node:path';
import picomatch from 'picomatch';
import { displayPath } from './confined-fs';
import { resolveSearchScope } from './search-scope';
import { ToolError, defineTool, ok } from './tool';
import { walkFiles } from './walk';

export const MAX_FIND_RESULTS = 1_000;

export const findFilesTool = defineTool({
  name: 'find_files',
    input: FindFilesInput,
  description:
    'Find files by glob pattern (`*` within a folder, `**` across folders, e.g. `src/**/*.ts` or `**/*.md`), ' +
    'matched against paths relative to `path` (default: the project root). Files ignored by .gitignore, `.git/` and ' +
    '`node_modules/` are skipped. Results are sorted, paths relative to the project root.',
  timeoutMs: () => 30_000,
  async run(input, ctx) {
    const scope = resolveSearchScope(input.path, ctx);
    if (!scope.isDirectory) throw new ToolError(`${input.path ?? '.'} is a file, not a folder`);
    // Patterns are relative to the search folder; an absolute one under it is made relative.
    const prefix = scope.real.endsWith('/') ? scope.real : `${scope.real}/`;
    const relPattern = input.pattern.startsWith(prefix) ? input.pattern.slice(prefix.length) : input.pattern.replace(/^\.\//, '');
    const isMatch = picomatch(relPattern, { dot: true });
    const found: string[] = [];
    let more = 0;
    walkFiles(
      scope.ignoreRoot,
      scope.real,
      (entry) => {
        const relToStart = path.relative(scope.real, entry.abs).split(path.sep).join('/');
        if (!isMatch(relToStart)) return true;
        if (found.length < MAX_FIND_RESULTS) found.push(displayPath(entry.abs, ctx.projectRoot));
        else more++;
        return true;
      },
      ctx.signal,
    );
    if (found.length === 0) return ok(`No files match ${input.pattern}`);
    const note = more > 0 ? `\n[${more.toLocaleString('en-US')} more files not shown; results capped at ${MAX_FIND_RESULTS.toLocaleString('en-US')}: narrow the pattern or path]` : '';
    return ok(found.join('\n') + note);
  },
});
