import path from 'node:path';
import type { ToolCategory, ToolName } from '../../shared/tools';
import { analyzeCommand, readOnlyPathArgs, readPathArgs } from './command';
import type { CommandAnalysis, SimpleCommand, WriteTarget } from './command/types';
import { expandGlobArg } from './command/glob-expand';
import { globBase, judgePath, type JudgedPath } from './judged-path';
import type { PathConfinement } from './path-confinement';

/** What the engine knows about a file tool call: the path it touches (and the folder a glob reaches). */
export interface FileFacts {
  kind: 'file';
  access: 'read' | 'write';
  target: JudgedPath;
  /** Other places the call reaches (the fixed base of a find_files pattern). */
  extra: JudgedPath[];
}

export interface CommandPart {
  cmd: SimpleCommand;
  /** File arguments of a reading command: what Read rules and the sensitive-file default judge. */
  readPaths: JudgedPath[];
  /** True when the part is in the read-only set and all its path arguments lie in allowed ground. */
  readOnly: boolean;
  /** Arguments of a file-modifying program (cp, mv, rm, sed -i, dd of=...): checked by self-protection. */
  modifiedPaths: JudgedPath[];
}

export interface CommandWrite {
  target: WriteTarget;
  /** /dev/null, /dev/stdout, /dev/stderr and file-descriptor duplications: free. */
  free: boolean;
  path: JudgedPath;
}

export interface CommandFacts {
  kind: 'command';
  analysis: CommandAnalysis;
  parts: CommandPart[];
  writes: CommandWrite[];
  /** Files read through `<`. */
  inputReads: JudgedPath[];
  /** Every part read-only, nothing written: the command counts as a read. */
  readOnly: boolean;
}

export type CallFacts = FileFacts | CommandFacts;

const FREE_TARGETS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty', '/dev/fd/1', '/dev/fd/2']);
const MODIFYING_PROGRAMS = new Set(['cp', 'mv', 'rm', 'ln', 'install', 'rsync', 'unlink', 'truncate', 'touch', 'chmod', 'chown', 'chgrp', 'shred', 'rmdir', 'mkdir', 'tee', 'patch']);
const IN_PLACE_PROGRAMS = new Set(['sed', 'perl', 'ruby']);

function isFreeTarget(p: string): boolean {
  return FREE_TARGETS.has(p) || /^&(\d+|-)$/.test(p);
}

function looksDynamic(word: string): boolean {
  return /[$`]/.test(word);
}

function dynamicWords(cmd: SimpleCommand): Set<string> {
  const out = new Set<string>();
  cmd.argv.forEach((w, i) => {
    if (cmd.argvDynamic?.[i] || looksDynamic(w)) out.add(w);
  });
  return out;
}

function modifiedArgs(cmd: SimpleCommand): string[] {
  const args = cmd.argv.slice(1);
  if (cmd.name === 'dd') return args.filter((a) => a.startsWith('of=')).map((a) => a.slice(3));
  const inPlace = IN_PLACE_PROGRAMS.has(cmd.name) && args.some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place'));
  if (!MODIFYING_PROGRAMS.has(cmd.name) && !inPlace) return [];
  return args.filter((a) => !a.startsWith('-'));
}

/** `cd DIR` / `pushd DIR` read and write nothing: read-only when DIR stays in the project (`cd` alone goes home). */
function directoryChangeArgs(cmd: SimpleCommand): string[] | null {
  if (cmd.name !== 'cd' && cmd.name !== 'pushd') return null;
  const args = cmd.argv.slice(1).filter((a) => a !== '-P' && a !== '-L' && a !== '--');
  if (args.length !== 1 || args[0] === '-' || args[0]!.startsWith('-')) return null;
  return args;
}

export function fileFacts(tool: ToolName, input: Record<string, unknown>, confinement: PathConfinement): FileFacts {
  const access = tool === 'write_file' || tool === 'edit_file' ? 'write' : 'read';
  const given = typeof input.path === 'string' ? input.path : '.';
  const target = judgePath(confinement, given);
  const extra: JudgedPath[] = [];
  // The fixed folder a glob starts from is reached too (find_files' pattern, search_code's file filter).
  const glob = tool === 'find_files' ? input.pattern : tool === 'search_code' ? input.glob : undefined;
  if (typeof glob === 'string') {
    const base = globBase(glob);
    if (base !== '.') extra.push(judgePath(confinement, base.startsWith('/') ? base : `${given}/${base}`));
  }
  return { kind: 'file', access, target, extra };
}

export function commandFacts(command: string, confinement: PathConfinement): CommandFacts {
  const analysis = analyzeCommand(command);
  const movedCwd = analysis.changesDirectory === true;
  const judge = (p: string, dynamic: boolean): JudgedPath => {
    const relative = !p.startsWith('/') && !p.startsWith('~');
    return judgePath(confinement, p, { unknown: dynamic || looksDynamic(p) || (movedCwd && relative) });
  };
  const where = { projectRoot: confinement.projectRoot, home: confinement.home }; // lets globs be expanded
  // A glob also names the files it matches: they are judged too (Read/Edit rules, defaults, self-protection).
  const withMatches = (a: string, dynamic: boolean): JudgedPath[] => {
    const own = judge(a, dynamic);
    if (!dynamic || movedCwd) return [own];
    return [own, ...(expandGlobArg(a, where) ?? []).filter((m) => m !== a).map((m) => judgePath(confinement, m))];
  };
  const parts: CommandPart[] = analysis.commands.map((cmd) => {
    const dyn = dynamicWords(cmd);
    // After a `cd`, this command's relative paths start from its own directory (null: unknowable).
    const moved = cmd.cwd !== undefined;
    const ctxFor = moved ? undefined : where; // globs are only expanded from the project root
    const judgeHere = (a: string): JudgedPath => {
      const relative = !path.isAbsolute(a) && !a.startsWith('~');
      if (!moved || !relative) return judgePath(confinement, a, { unknown: dyn.has(a) || looksDynamic(a) });
      if (cmd.cwd === null || cmd.cwd === undefined) return judgePath(confinement, a, { unknown: true });
      return judgePath(confinement, `${cmd.cwd}/${a}`, { unknown: dyn.has(a) || looksDynamic(a) || looksDynamic(cmd.cwd) });
    };
    const roArgs = readOnlyPathArgs(cmd, ctxFor) ?? directoryChangeArgs(cmd);
    const roJudged = roArgs?.map(judgeHere) ?? null;
    return {
      cmd,
      readPaths: readPathArgs(cmd, ctxFor).map(judgeHere),
      readOnly: roJudged !== null && roJudged.every((j) => j.root !== null && !j.unknown),
      modifiedPaths: moved ? modifiedArgs(cmd).map(judgeHere) : modifiedArgs(cmd).flatMap((a) => withMatches(a, dyn.has(a))),
    };
  });
  const writes: CommandWrite[] = analysis.writes.map((target) => ({
    target,
    free: !target.dynamic && isFreeTarget(target.path),
    path: judge(target.path, target.dynamic === true),
  }));
  const inputReads = (analysis.reads ?? []).flatMap((r) => withMatches(r.path, r.dynamic === true));
  const readOnly =
    analysis.readable &&
    parts.length > 0 &&
    parts.every((p) => p.readOnly) &&
    writes.every((w) => w.free) &&
    inputReads.every((r) => r.root !== null && !r.unknown);
  return { kind: 'command', analysis, parts, writes, inputReads, readOnly };
}

export function categoryOf(tool: ToolName, facts: CallFacts, base: ToolCategory): ToolCategory {
  if (facts.kind === 'command') return facts.readOnly ? 'read' : 'exec';
  return tool === 'run_command' ? 'exec' : base;
}
