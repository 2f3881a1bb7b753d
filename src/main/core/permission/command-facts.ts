import { analyzeCommand } from '../shell-analysis/analyze';
import { readOnlyPathArgs, readPathArgs } from '../shell-analysis/read-only/read-only';
import { expandGlobArg, isExpandableGlob } from '../shell-analysis/words/glob-expand';
import { programFiles, type FileArg } from '../shell-analysis/programs/program-files';
import { READERS } from '../shell-analysis/programs/readers-table';
import { judgeReaches, type CommandReach } from './command-reaches';
import { treeReads } from '../shell-analysis/programs/tree-reads';
import { walkTreeRead } from './tree-walk';
import type { AnalysisCache } from './analysis-cache';
import type { CommandAnalysis, CommandContext, Cwd, SimpleCommand, WriteTarget } from '../shell-analysis/types';
import { judgePath, type JudgedPath } from '../paths/judged-path';
import type { PathConfinement } from '../paths/path-confinement';

/**
 * What the engine knows about a `run_command` call: its simple commands, the files each reads and writes (by
 * redirection or by argument), and whether the whole command is read-only. Every path is judged where it really
 * lands, from the directory the command is in at that point (a `cd` before it moves relative paths).
 */
interface CommandPart {
  cmd: SimpleCommand;
  /** Files this part reads (a reader's arguments, `cp` sources, `dd if=`, `curl -T`...): Read rules and defaults. */
  readPaths: JudgedPath[];
  /** True when the part is in the read-only set and all its path arguments lie in allowed ground. */
  readOnly: boolean;
  /** Targets of links this part creates (`ln -s TARGET NAME`): a link into a protected folder is a way to write it. */
  linkTargets: JudgedPath[];
  /** Folders this part writes files into that only the run decides (`tar -x`, `git checkout`): see command-reaches.ts. */
  reaches: CommandReach[];
}

interface CommandWrite {
  target: WriteTarget;
  /** /dev/null, /dev/stdout, /dev/stderr and file-descriptor duplications: free. */
  free: boolean;
  path: JudgedPath;
}

export interface CommandFacts {
  kind: 'command';
  analysis: CommandAnalysis;
  parts: CommandPart[];
  /** Every file written: redirections, `tee`, and programs that write by argument (`cp`, `sed -i`, `curl -o`...). */
  writes: CommandWrite[];
  /** Files read through `<`. */
  inputReads: JudgedPath[];
  /** Writes the command's text does not show (`curl -K cfg`): the reasons. */
  hiddenWrites: string[];
  /** Every part read-only, nothing written: the command counts as a read. */
  readOnly: boolean;
}

const FREE_TARGETS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty', '/dev/fd/1', '/dev/fd/2']);

function isFreeTarget(p: string): boolean {
  return FREE_TARGETS.has(p) || /^&(\d+|-)$/.test(p);
}

function looksDynamic(word: string): boolean {
  return /[$`]/.test(word);
}

/**
 * Where a part runs: a directory (relative to the project root, or absolute) or unknown. An unknown place keeps
 * the directory as written, when there is one, as a best guess for the hard checks (`cd .gatehouse && curl -O`).
 */
export type Place = { known: true; dir: string; ctx: CommandContext } | { known: false; guess: string | null };

/** `cd DIR` / `pushd DIR` read and write nothing: read-only when DIR stays in the project (`cd` alone goes home). */
function directoryChangeArgs(cmd: SimpleCommand): string[] | null {
  if (cmd.name !== 'cd' && cmd.name !== 'pushd') return null;
  const args = cmd.argv.slice(1).filter((a) => a !== '-P' && a !== '-L' && a !== '--');
  if (args.length !== 1 || args[0] === '-' || args[0]!.startsWith('-')) return null;
  return args;
}

export class CommandJudge {
  private readonly places = new Map<string, Place>();
  private readonly root: CommandContext;

  constructor(private readonly confinement: PathConfinement) {
    const { projectRoot, home, fs, sys } = confinement;
    this.root = { projectRoot, home, fs, sys };
  }

  /**
   * A path as the shell spells it, as the engine judges it: on Windows Git Bash's `/c/x` is `C:\x`, and a path of
   * the shell's own tree (`/tmp/x`) is a place only the run knows (platform-path.ts, `fromShell`).
   */
  private judgeShellPath(p: string, opts: { unknown: boolean }): JudgedPath {
    const native = this.confinement.sys.fromShell(p);
    if (native === null) return judgePath(this.confinement, p, { unknown: true });
    return judgePath(this.confinement, native, opts);
  }

  /**
   * The directory a `cd` left the command in. A glob (`cd secre*`) is expanded; it must name exactly one folder. A
   * folder that does not exist (yet) makes the place unknown: the `cd` may fail and the command run elsewhere.
   */
  place(cwd: Cwd | undefined): Place {
    if (cwd === undefined) return { known: true, dir: '', ctx: this.root };
    if (cwd === null) return { known: false, guess: null };
    // `find DIR -execdir`: some folder in or beside DIR, which is the best guess for the hard checks
    if (typeof cwd === 'object') return { known: false, guess: cwd.under };
    const cached = this.places.get(cwd);
    if (cached !== undefined) return cached;
    // on Windows `\\?\C:\x` names `C:\x` (its `?` is no glob), and a folder of the shell's own tree is unknown
    const text = this.confinement.sys.fromShell(cwd) ?? cwd;
    let dir = text;
    if (/[*?[]/.test(text)) {
      const matches = isExpandableGlob(text) ? expandGlobArg(text, this.root) : null;
      dir = matches !== null && matches.length === 1 && matches[0] !== text ? (matches[0] as string) : '\0';
    }
    const judged = dir === '\0' ? null : this.judgeShellPath(dir || '.', { unknown: false });
    const place: Place =
      judged === null || judged.unknown || !this.confinement.isDirectory(judged.real)
        ? { known: false, guess: /[*?[]/.test(text) ? null : text }
        : { known: true, dir, ctx: { ...this.root, projectRoot: judged.real } };
    this.places.set(cwd, place);
    return place;
  }

  /** A path as written in a command that runs in `place`; `dynamic` when the shell computes it. */
  judge(p: string, place: Place, dynamic: boolean): JudgedPath {
    const relative = this.confinement.sys.isRelative(p) && !p.startsWith('~');
    const unknown = dynamic || looksDynamic(p);
    if (!relative) return this.judgeShellPath(p, { unknown });
    if (!place.known) return this.judgeShellPath(place.guess ? `${place.guess}/${p}` : p, { unknown: true });
    return this.judgeShellPath(place.dir === '' ? p : `${place.dir}/${p}`, { unknown });
  }

  /** The path and, for a glob, every file it reaches (each judged on its own: Read/Edit rules, self-protection). */
  withMatches(p: string, place: Place, dynamic: boolean): JudgedPath[] {
    const own = this.judge(p, place, dynamic);
    if (!dynamic || !place.known) return [own];
    // the expansion is a superset of what bash matches: when it found files, they are what the program gets
    const matches = (expandGlobArg(p, place.ctx) ?? []).filter((m) => m !== p);
    return matches.length === 0 ? [own] : matches.map((m) => this.judge(m, place, false));
  }
}

/**
 * The words whose text is not what the program gets. A glob that matches nothing is not one of them: bash passes
 * it on as written (the matching here is a superset of bash's, so nothing here means nothing for bash), and a
 * file of that name would have matched it, so it names no file (`grep -n x *.txt` where there is none).
 */
function dynamicWords(cmd: SimpleCommand, place: Place): Set<string> {
  const out = new Set<string>();
  cmd.argv.forEach((w, i) => {
    if (!cmd.argvDynamic?.[i] && !looksDynamic(w)) return;
    if (place.known && isExpandableGlob(w) && !looksDynamic(w)) {
      const matches = expandGlobArg(w, place.ctx);
      if (matches !== null && matches.length === 1 && matches[0] === w) return;
    }
    out.add(w);
  });
  return out;
}

function argDynamic(cmd: SimpleCommand, f: FileArg): boolean {
  return f.index >= 0 ? cmd.argvDynamic?.[f.index] === true || looksDynamic(f.value) : false;
}

/** A reader fed its file names on its input (`find . | xargs cat`): what it reads is not in the text. */
function readsNamesFromInput(cmd: SimpleCommand): boolean {
  return cmd.argsFromInput === true && cmd.inputArgsKnown !== true && READERS.has(cmd.name);
}

export interface CommandFactsOptions {
  trusted: boolean;
  /**
   * Which files under a folder a tree reader reads matter to the decision (secrets, files a Read deny or ask rule
   * covers): only those are kept as read paths, so a search of a big tree costs one walk. Absent: every file.
   */
  treeFileMatters?: (absolutePath: string) => boolean;
  /** Analyses made before (see analysis-cache.ts). */
  analyses?: Pick<AnalysisCache, 'get' | 'set'>;
  /** What runs the command (the worker reports it); absent: bash. */
  shell?: CommandShellKind;
}

/** bash, or PowerShell on a Windows machine without Git Bash (src/shared/node/windows-shell.ts). */
export type CommandShellKind = 'bash' | 'powershell';

/**
 * A PowerShell command is read as bash reads it, for the deny list and the deny and ask rules only (they can make
 * the decision stricter, never looser), and is unreadable: Gatehouse has no PowerShell analysis, so neither a rule
 * nor the read-only analysis allows it, and it asks in every mode, as a command bash cannot parse does.
 */
function inPowerShell(analysis: CommandAnalysis): CommandAnalysis {
  return {
    ...analysis,
    readable: false,
    unreadableReasons: [
      'it runs in PowerShell (no Git Bash on this Windows machine), which Gatehouse does not analyse',
    ],
  };
}

export function commandFacts(command: string, confinement: PathConfinement, opts: CommandFactsOptions): CommandFacts {
  let analysis = opts.analyses?.get(command);
  if (analysis === undefined) {
    analysis = analyzeCommand(command);
    opts.analyses?.set(command, analysis);
  }
  if (opts.shell === 'powershell') analysis = inPowerShell(analysis);
  const judge = new CommandJudge(confinement);
  const writes: CommandWrite[] = [];
  const hiddenWrites: string[] = [];
  const addWrite = (target: WriteTarget, place: Place, glob: boolean): void => {
    for (const p of glob
      ? judge.withMatches(target.path, place, target.dynamic === true)
      : [judge.judge(target.path, place, target.dynamic === true)]) {
      writes.push({ target, free: !target.dynamic && isFreeTarget(target.path), path: p });
    }
  };
  for (const target of analysis.writes) addWrite(target, judge.place(target.cwd), false);

  const parts: CommandPart[] = analysis.commands.map((cmd) => {
    const place = judge.place(cmd.cwd);
    const dyn = dynamicWords(cmd, place);
    const here = (a: string): JudgedPath => judge.judge(a, place, dyn.has(a));
    const files = programFiles(cmd);
    for (const w of files.writes) {
      const cwd = cmd.cwd === undefined ? {} : { cwd: cmd.cwd };
      addWrite({ path: w.value, via: cmd.name, dynamic: argDynamic(cmd, w), ...cwd }, place, true);
    }
    if (files.hiddenWrites !== null) hiddenWrites.push(files.hiddenWrites);
    const readPaths = [
      ...readPathArgs(cmd).flatMap((a) => judge.withMatches(a, place, dyn.has(a))),
      ...files.reads.flatMap((r) => judge.withMatches(r.value, place, argDynamic(cmd, r))),
      ...(readsNamesFromInput(cmd) ? [judge.judge('(the names on its input)', place, true)] : []),
      // every file under a folder a reader of whole trees is given (`grep -r`, `diff -r`, `tar -c`, `cp -r`...)
      // (a glob operand is each folder it matches; one that matches nothing names no folder, as for other reads)
      ...treeReads(cmd).flatMap((t) =>
        judge
          .withMatches(t.value, place, t.index >= 0 && (dyn.has(cmd.argv[t.index] ?? '') || looksDynamic(t.value)))
          .flatMap((dir) => (dir.unknown ? [dir] : walkTreeRead(t, dir, confinement, opts.treeFileMatters))),
      ),
    ];
    const ctx = place.known ? place.ctx : undefined;
    // In a project that is not trusted git is not read-only: its .git/config can run programs.
    const repositoryConfigured =
      cmd.name === 'git' && !opts.trusted && !(cmd.argv.length === 2 && cmd.argv[1] === '--version');
    const roArgs = repositoryConfigured ? null : (readOnlyPathArgs(cmd, ctx) ?? directoryChangeArgs(cmd));
    const roJudged = roArgs?.map(here) ?? null;
    // a program moved to another folder (`cd`, `env -C`, `git -C`) works there: it must be in the project too
    const placeJudged = cmd.cwd === undefined ? [] : [here('.')];
    return {
      cmd,
      readPaths,
      readOnly:
        roJudged !== null &&
        [...roJudged, ...placeJudged].every((j) => j.root !== null && !j.unknown) &&
        files.writes.length === 0,
      linkTargets: files.links.flatMap((l) => judge.withMatches(l.value, place, argDynamic(cmd, l))),
      reaches: judgeReaches(cmd, analysis, place, judge, confinement),
    };
  });
  const inputReads = (analysis.reads ?? []).flatMap((r) =>
    judge.withMatches(r.path, judge.place(r.cwd), r.dynamic === true),
  );
  const readOnly =
    analysis.readable &&
    parts.length > 0 &&
    parts.every((p) => p.readOnly) &&
    writes.every((w) => w.free) &&
    hiddenWrites.length === 0 &&
    inputReads.every((r) => r.root !== null && !r.unknown);
  return { kind: 'command', analysis, parts, writes, inputReads, hiddenWrites, readOnly };
}
