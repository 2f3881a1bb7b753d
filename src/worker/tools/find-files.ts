import { FindFilesInput } from '../../shared/tools';
import path from 'node:path';
import picomatch from 'picomatch';
import { displayPath } from './confined-fs';
import { splitReadable, withLeftOutNote } from './read-filter';
import { resolveSearchScope } from './search-scope';
import { ToolError, defineTool, ok, type ToolRunContext } from './tool';
import { walkFiles } from './walk';

const MAX_FIND_RESULTS = 1_000;
/** Matching paths judged per step; judging stops once MAX_FIND_RESULTS visible files were found. */
const JUDGE_STEP = 2_000;

export const findFilesTool = defineTool({
  name: 'find_files',
  input: FindFilesInput,
  description:
    'Find files by glob pattern (`*` within a folder, `**` across folders, e.g. `src/**/*.ts` or `**/*.md`), ' +
    'matched against paths relative to `path` (default: the project root). Files ignored by .gitignore, `.git/` and ' +
    '`node_modules/` are skipped, and so are files you may not read without asking (the result names them). ' +
    'Results are sorted, paths relative to the project root.',
  timeoutMs: () => 30_000,
  async run(input, ctx) {
    const scope = await resolveSearchScope(input.path, ctx);
    if (!scope.isDirectory) throw new ToolError(`${input.path ?? '.'} is a file, not a folder`);
    // Patterns are relative to the search folder; an absolute one under it is made relative.
    const prefix = scope.real.endsWith('/') ? scope.real : `${scope.real}/`;
    const relPattern = input.pattern.startsWith(prefix)
      ? input.pattern.slice(prefix.length)
      : input.pattern.replace(/^\.\//, '');
    const isMatch = picomatch(relPattern, { dot: true });
    const matched: string[] = [];
    await walkFiles(
      scope.ignoreRoot,
      scope.real,
      (entry) => {
        const relToStart = path.relative(scope.real, entry.abs).split(path.sep).join('/');
        if (isMatch(relToStart)) matched.push(displayPath(entry.abs, ctx.projectRoot));
        return true;
      },
      ctx.signal,
    );
    const { found, hidden, more } = await visibleMatches(matched, ctx);
    if (found.length === 0) return ok(withLeftOutNote(`No files match ${input.pattern}`, hidden));
    const note =
      more > 0
        ? `\n[${more.toLocaleString('en-US')} more files not shown; results capped at ${MAX_FIND_RESULTS.toLocaleString('en-US')}: narrow the pattern or path]`
        : '';
    return ok(withLeftOutNote(found.join('\n') + note, hidden));
  },
});

/** The first MAX_FIND_RESULTS readable files of `matched` (walk order), the hidden ones among those judged, the rest counted. */
async function visibleMatches(
  matched: readonly string[],
  ctx: ToolRunContext,
): Promise<{ found: string[]; hidden: string[]; more: number }> {
  const found: string[] = [];
  const hidden: string[] = [];
  let more = 0;
  let judged = 0;
  while (judged < matched.length && found.length < MAX_FIND_RESULTS) {
    const step = matched.slice(judged, judged + JUDGE_STEP);
    judged += step.length;
    const split = await splitReadable(step, ctx.readable, ctx.signal);
    for (const p of step) {
      if (!split.visible.has(p)) hidden.push(p);
      else if (found.length < MAX_FIND_RESULTS) found.push(p);
      else more++;
    }
  }
  return { found, hidden, more: more + matched.length - judged };
}
