/**
 * The shell command analyser of the permission engine (contract "Commands"): a real bash grammar
 * (web-tree-sitter + tree-sitter-bash), never string matching.
 *
 * - `initShellParser()` once (idempotent), then `analyzeCommand()` is synchronous.
 * - Fork bombs: reported in `CommandAnalysis.forkBomb` by `analyzeCommand`; `findForkBomb(command)` is the same
 *   answer for a raw string.
 * - Writes: `/dev/null`, `/dev/stdout`, `/dev/stderr` are reported like any target (the engine treats them as
 *   free); input redirects are in `CommandAnalysis.reads`.
 * - `readOnlyPathArgs(cmd, ctx?)` / `readPathArgs(cmd, ctx?)`: pass the context to have glob arguments expanded.
 */
export type { CommandAnalysis, CommandContext, Cwd, ReadTarget, SimpleCommand, WriteTarget } from './types';
export { initShellParser } from './parser';
export { analyzeCommand, findForkBomb, analysisSummary } from './analyze';
export { hardDenyReason, hardDenyWriteReason } from './deny-list';
export { readOnlyPathArgs, readPathArgs } from './read-only';
export { expandGlobArg } from './glob-expand';
