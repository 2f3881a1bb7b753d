import { archiveFiles } from './program-files-archive';
import { networkFiles } from './program-files-net';
import { files, NO_FILES, type FileArg, type ProgramFiles } from './file-args';
import { options, parseOptions, type OptionSpec } from './options';
import type { SimpleCommand } from '../types';

export type { FileArg, ProgramFiles } from './file-args';

/**
 * Files a program reads or writes by argument (contract "Assurance: Writes by programs" and "Reads by programs"):
 * `cp` sources and destination, `dd if=`/`of=`, `sed -i` files, `curl -o`/`-T`, `tar -c`/`-x`, `touch`, `rm`...
 * The engine judges the writes exactly like redirection targets (self-protection, Edit rules, the `.git/`-style
 * defaults, outside-the-project asks) and the reads like the arguments of `cat` (Read rules, sensitive files).
 * Options are parsed in open mode: an option we do not list is taken as a flag, so its value, if any, is judged as
 * a path too (stricter, never looser).
 */
/** cp, mv, install, ln: `SRC... DEST`, or `-t DEST SRC...`. */
const COPY = options(
  `-t=write -S= -m= -o= -g= -Z? --target-directory=write --suffix= --backup? --sparse= --reflink? --preserve?
   --no-preserve= --mode= --owner= --group= --context? --strip-program= --update?`,
);

function basename(p: string): string {
  return p.replace(/\/+$/, '').split('/').pop() || p;
}

function copyLike(cmd: SimpleCommand, kind: 'copy' | 'move' | 'link'): ProgramFiles {
  const parsed = parseOptions(cmd.argv, COPY);
  const operands: FileArg[] = parsed.operands;
  if (cmd.name === 'install' && parsed.flags.some((f) => /^-[a-zA-Z]*d/.test(f) || f === '--directory'))
    return files({ writes: operands });
  let sources: FileArg[];
  let dest: FileArg[];
  if (parsed.writes.length > 0) {
    sources = operands;
    dest = parsed.writes;
  } else if (operands.length === 1) {
    // `ln -s ../x` (and `cp x`, an error) creates the name in the working directory
    const only = operands[0] as FileArg;
    sources = operands;
    dest = kind === 'link' ? [{ value: basename(only.value), index: only.index }] : [];
  } else {
    sources = operands.slice(0, -1);
    dest = operands.slice(-1);
  }
  if (kind === 'link') return files({ writes: dest, links: sources });
  if (kind === 'move') return files({ reads: sources, writes: [...sources, ...dest] });
  return files({ reads: sources, writes: dest });
}

/**
 * Where cp, mv, install and ln put things: the sources, the destination, and whether the destination is a folder
 * the sources go into (`-t`, several sources: true; `-T`: false; otherwise it depends on the disk: null).
 */
export function copyPlan(
  cmd: SimpleCommand,
): { sources: FileArg[]; dest: FileArg | null; intoDirectory: boolean | null } | null {
  const parsed = parseOptions(cmd.argv, COPY);
  if (cmd.name === 'install' && parsed.flags.some((f) => /^-[a-zA-Z]*d/.test(f) || f === '--directory')) return null;
  const noTarget = parsed.flags.some((f) => /^-[a-zA-Z]*T/.test(f) || f === '--no-target-directory');
  if (parsed.writes.length > 0)
    return { sources: parsed.operands, dest: parsed.writes[parsed.writes.length - 1] ?? null, intoDirectory: true };
  if (parsed.operands.length === 1 && (cmd.name === 'ln' || cmd.name === 'link'))
    return { sources: parsed.operands, dest: { value: '.', index: -1 }, intoDirectory: true };
  if (parsed.operands.length < 2) return null;
  const intoDirectory = noTarget ? false : parsed.operands.length > 2 ? true : null;
  return {
    sources: parsed.operands.slice(0, -1),
    dest: parsed.operands[parsed.operands.length - 1] ?? null,
    intoDirectory,
  };
}

function ddFiles(cmd: SimpleCommand): ProgramFiles {
  const reads: FileArg[] = [];
  const writes: FileArg[] = [];
  cmd.argv.forEach((a, index) => {
    if (a.startsWith('if=')) reads.push({ value: a.slice(3), index });
    if (a.startsWith('of=')) writes.push({ value: a.slice(3), index });
  });
  return files({ reads, writes });
}

const SED_OPTS = options(
  '-e=pattern -f=file -l= -i? -s -E -r -n -u -z --expression=pattern --file=file --line-length= --in-place?',
);

function isInPlaceFlag(f: string): boolean {
  if (!f.startsWith('--')) return /^-[a-zA-Z]*i/.test(f);
  const name = f.split('=')[0] as string;
  return name.length >= 4 && '--in-place'.startsWith(name); // getopt accepts unambiguous prefixes
}

function sedFiles(cmd: SimpleCommand): ProgramFiles {
  const parsed = parseOptions(cmd.argv, SED_OPTS);
  if (!parsed.flags.some(isInPlaceFlag)) return NO_FILES;
  const targets = (parsed.patternByOption ? parsed.operands : parsed.operands.slice(1)).filter((o) => o.value !== '-');
  return files({ reads: targets, writes: targets });
}

/** perl/ruby `-i`: the files after the script (or after `-e CODE`) are rewritten in place. */
function inPlaceInterpreter(cmd: SimpleCommand): ProgramFiles {
  let inPlace = false;
  let code = false;
  const operands: FileArg[] = [];
  for (let i = 1; i < cmd.argv.length; i++) {
    const a = cmd.argv[i] as string;
    if (a === '--') {
      cmd.argv.slice(i + 1).forEach((value, k) => operands.push({ value, index: i + 1 + k }));
      break;
    }
    if (a.startsWith('-') && a.length > 1 && operands.length === 0) {
      const letters = /^[a-zA-Z]*/.exec(a.slice(1))?.[0] ?? '';
      if (letters.includes('i')) inPlace = true;
      const whole = letters.length === a.length - 1;
      if (whole && /[eE]$/.test(letters)) {
        code = true;
        i++; // the code itself
      } else if (whole && /[IMmxC]$/.test(letters)) i++;
      continue;
    }
    operands.push({ value: a, index: i });
  }
  if (!inPlace) return NO_FILES;
  const targets = code ? operands : operands.slice(1);
  return files({ reads: targets, writes: targets });
}

/** Programs whose operands are the files they change; options listed with `=file` are files they read. */
const OPERAND_WRITERS = new Map<string, OptionSpec>([
  ['touch', options('-a -c -h -m -d= -r=file -t= --no-create --no-dereference --date= --reference=file --time=')],
  ['mkdir', options('-m= -p -v -Z? --mode= --parents --verbose --context?')],
  ['rmdir', options('-p -v --parents --verbose --ignore-fail-on-non-empty')],
  ['rm', options('')],
  ['unlink', options('')],
  ['shred', options('-n= -s= --iterations= --size= --random-source=file --remove?')],
  ['truncate', options('-c -o -s= -r=file --no-create --io-blocks --size= --reference=file')],
]);

function operandWriter(cmd: SimpleCommand, spec: OptionSpec): ProgramFiles {
  const parsed = parseOptions(cmd.argv, spec);
  return files({ reads: parsed.files, writes: parsed.operands });
}

/**
 * chmod, chown, chgrp, chattr: the first operand is a mode, owner or group (unless `--reference=FILE` gives it);
 * a symbolic mode such as `-x` or `+i` looks like an option but is an operand.
 */
const MODE_OPTIONS = /^-[RcfvHLPh]+$/;

function modeChanger(cmd: SimpleCommand): ProgramFiles {
  const reads: FileArg[] = [];
  const operands: FileArg[] = [];
  let opts = true;
  cmd.argv.forEach((a, index) => {
    if (index === 0) return;
    if (opts && a === '--') opts = false;
    else if (opts && a.startsWith('--reference=')) reads.push({ value: a.slice(12), index });
    else if (opts && (a.startsWith('--') || MODE_OPTIONS.test(a))) return;
    else operands.push({ value: a, index });
  });
  return files({ reads, writes: reads.length > 0 ? operands : operands.slice(1) });
}

/** Programs with one output option (`sort -o FILE`) that read their operands. */
const OUTPUT_OPTION = new Map<string, OptionSpec>([
  [
    'sort',
    options(
      '-k= -S= -t= -T=write -o=write --key= --buffer-size= --field-separator= --temporary-directory=write --output=write --parallel= --batch-size= --files0-from=file --random-source=file --compress-program=',
    ),
  ],
  ['shuf', options('-n= -o=write -i= --head-count= --output=write --input-range= --random-source=file')],
  ['iconv', options('-f= -t= -o=write --from-code= --to-code= --output=write')],
]);

function outputOption(cmd: SimpleCommand, spec: OptionSpec): ProgramFiles {
  const parsed = parseOptions(cmd.argv, spec);
  return files({ reads: [...parsed.operands, ...parsed.files], writes: parsed.writes });
}

/** `uniq IN OUT`, `split IN PREFIX` (default prefix `x` in the working directory). */
const INPUT_OUTPUT = options(
  '-f= -s= -w= -a= -b= -C= -l= -n= -t= --skip-fields= --skip-chars= --check-chars= --suffix-length= --additional-suffix= --bytes= --line-bytes= --lines= --number= --separator= --filter=',
);

function inputOutput(cmd: SimpleCommand): ProgramFiles {
  const parsed = parseOptions(cmd.argv, INPUT_OUTPUT);
  const [input, output] = parsed.operands;
  const writes = output !== undefined ? [output] : cmd.name === 'split' ? [{ value: 'x', index: -1 }] : [];
  return files({ reads: input !== undefined && input.value !== '-' ? [input] : [], writes });
}

/** `find -fprint FILE` writes FILE; `-delete` deletes below the starting points. */
function findFiles(cmd: SimpleCommand): ProgramFiles {
  const writes: FileArg[] = [];
  const starts: FileArg[] = [];
  let i = 1;
  while (i < cmd.argv.length && /^-([HLP]|O\d*)$/.test(cmd.argv[i] as string)) i++;
  while (i < cmd.argv.length && !/^[-(!]/.test(cmd.argv[i] as string))
    starts.push({ value: cmd.argv[i] as string, index: i++ });
  let deletes = false;
  for (; i < cmd.argv.length; i++) {
    const a = cmd.argv[i] as string;
    if (/^-(fprint|fprint0|fls|fprintf)$/.test(a) && cmd.argv[i + 1] !== undefined)
      writes.push({ value: cmd.argv[i + 1] as string, index: i + 1 });
    if (a === '-delete') deletes = true;
  }
  if (deletes) writes.push(...(starts.length > 0 ? starts : [{ value: '.', index: -1 }]));
  return files({ writes });
}

type Handler = (cmd: SimpleCommand) => ProgramFiles;

const HANDLERS = new Map<string, Handler>([
  ['cp', (c) => copyLike(c, 'copy')],
  ['install', (c) => copyLike(c, 'copy')],
  ['mv', (c) => copyLike(c, 'move')],
  ['ln', (c) => copyLike(c, 'link')],
  ['link', (c) => copyLike(c, 'link')],
  ['dd', ddFiles],
  ['sed', sedFiles],
  ['perl', inPlaceInterpreter],
  ['ruby', inPlaceInterpreter],
  ['chmod', modeChanger],
  ['chown', modeChanger],
  ['chgrp', modeChanger],
  ['chattr', modeChanger],
  ['uniq', inputOutput],
  ['split', inputOutput],
  ['find', findFiles],
]);

/** The files `cmd` reads and writes by argument, as far as its program is known. */
export function programFiles(cmd: SimpleCommand): ProgramFiles {
  const handler = HANDLERS.get(cmd.name);
  if (handler !== undefined) return handler(cmd);
  const writer = OPERAND_WRITERS.get(cmd.name);
  if (writer !== undefined) return operandWriter(cmd, writer);
  const output = OUTPUT_OPTION.get(cmd.name);
  if (output !== undefined) return outputOption(cmd, output);
  return archiveFiles(cmd) ?? networkFiles(cmd) ?? NO_FILES;
}
