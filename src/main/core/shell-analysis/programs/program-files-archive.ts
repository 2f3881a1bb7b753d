import { options, parseOptions } from './options';
import { files, NO_FILES, type FileArg, type ProgramFiles } from './file-args';
import type { SimpleCommand } from '../types';

/**
 * Archivers and compressors: `tar -c` reads its operands and writes the archive, `tar -x` reads the archive and
 * writes into `-C DIR` (or the working directory: which files is only known from the archive, so the folder is
 * what is judged), `zip`/`unzip`, and `gzip`-style compressors that replace their operands.
 */

/** Letters of tar's old-style first argument (`tar czf x.tgz dir`) that take a value, in order. */
const TAR_VALUE_LETTERS = 'fCTXbHKLNVgI';
const TAR = options(
  `-f= -C= -T=file -X=file -b= -H= -K= -L= -N= -V= -g=write -I= --file= --directory= --files-from=file --exclude-from=file
   --exclude= --transform= --xform= --owner= --group= --mode= --mtime= --newer= --after-date= --format= --use-compress-program=
   --to-command= --checkpoint= --checkpoint-action= --info-script= --new-volume-script= --rsh-command= --listed-incremental=write
   --index-file=write --volno-file=write --suffix= --strip-components= --blocking-factor= --record-size= --label=
   --tape-length= --starting-file= --occurrence? --backup? --warning= --quoting-style= --sort= --hole-detection=`,
);

/** `tar czf x.tgz dir` as `tar -c -z -f x.tgz dir`. */
function tarArgv(argv: string[]): string[] {
  const first = argv[1];
  if (first === undefined || first.startsWith('-') || !/^[A-Za-z]+$/.test(first)) return argv;
  const out = [argv[0] as string];
  const rest = argv.slice(2);
  for (const letter of first) {
    out.push(`-${letter}`);
    if (TAR_VALUE_LETTERS.includes(letter) && rest.length > 0) out.push(rest.shift() as string);
  }
  return [...out, ...rest];
}

function tarFiles(cmd: SimpleCommand): ProgramFiles {
  const argv = tarArgv(cmd.argv);
  // old-style words were split into options: their indexes no longer match argv, so treat them as written
  const oldStyle = argv.length !== cmd.argv.length;
  const at = (f: FileArg): FileArg => (oldStyle ? { value: f.value, index: -1 } : f);
  const parsed = parseOptions(argv, TAR);
  const has = (short: string, long: string): boolean => parsed.seen.has(short) || parsed.seen.has(long);
  const value = (short: string, long: string): FileArg[] =>
    [...(parsed.values.get(short) ?? []), ...(parsed.values.get(long) ?? [])].filter((f) => f.value !== '-').map(at);
  const archive = value('f', '--file');
  // each relative -C is taken from the one before it (`-C build -C ../dist` is dist)
  let current = '';
  const directory = value('C', '--directory').map((d) => {
    current = d.value.startsWith('/') || d.value.startsWith('~') || current === '' ? d.value : `${current}/${d.value}`;
    return { value: current, index: d.index };
  });
  const dir = directory[directory.length - 1];
  const inDirectory = (o: FileArg): FileArg =>
    dir === undefined || o.value.startsWith('/') ? o : { value: `${dir.value}/${o.value}`, index: o.index };
  const reads = parsed.files.map(at);
  const writes = parsed.writes.map(at);
  if (has('x', '--extract') || has('x', '--get')) {
    const toStdout = has('O', '--to-stdout');
    const target = toStdout ? [] : directory.length > 0 ? directory : [{ value: '.', index: -1 }];
    return files({ reads: [...archive, ...reads], writes: [...target, ...writes] });
  }
  if (has('c', '--create') || has('r', '--append') || has('u', '--update') || has('A', '--catenate')) {
    return files({ reads: [...parsed.operands.map(at).map(inDirectory), ...reads], writes: [...archive, ...writes] });
  }
  return files({ reads: [...archive, ...reads], writes }); // -t, -d: only look
}

const ZIP = options(
  '-b= -n= -t= -P= -O=write -Z= -s= -i= -x= --temp-path= --suffixes= --password= --output-file=write',
);
const UNZIP = options('-d=write -x= -P= -I= -O=');
const COMPRESSOR = options('-o=write -S= -b= -L= -T= --suffix= --output=write --threads= --memlimit= -#=');

function zipFiles(cmd: SimpleCommand): ProgramFiles {
  const parsed = parseOptions(cmd.argv, ZIP);
  const [archive, ...inputs] = parsed.operands;
  if (archive === undefined) return NO_FILES;
  return files({ reads: inputs, writes: [archive, ...parsed.writes] });
}

function unzipFiles(cmd: SimpleCommand): ProgramFiles {
  const parsed = parseOptions(cmd.argv, UNZIP);
  const [archive] = parsed.operands;
  const listing = parsed.flags.some((f) => /^-[a-zA-Z]*[lptvZz]/.test(f));
  const writes = listing ? [] : parsed.writes.length > 0 ? parsed.writes : [{ value: '.', index: -1 }];
  return files({ reads: archive === undefined ? [] : [archive], writes });
}

const COMPRESSORS = new Set([
  'gzip',
  'gunzip',
  'bzip2',
  'bunzip2',
  'xz',
  'unxz',
  'lzma',
  'unlzma',
  'zstd',
  'unzstd',
  'lz4',
  'lzip',
  'compress',
  'uncompress',
  'brotli',
  'pigz',
]);

/** gzip-style: reads each operand and replaces it (writes beside it) unless it only prints or tests. */
function compressorFiles(cmd: SimpleCommand): ProgramFiles {
  const parsed = parseOptions(cmd.argv, COMPRESSOR);
  const toStdout = parsed.flags.some(
    (f) => /^-[a-zA-Z0-9]*[ctl]/.test(f) || /^--(stdout|to-stdout|test|list)$/.test(f),
  );
  const operands = parsed.operands.filter((o) => o.value !== '-');
  return files({ reads: operands, writes: toStdout ? parsed.writes : [...operands, ...parsed.writes] });
}

export function archiveFiles(cmd: SimpleCommand): ProgramFiles | null {
  if (cmd.name === 'tar' || cmd.name === 'bsdtar' || cmd.name === 'gtar') return tarFiles(cmd);
  if (cmd.name === 'zip') return zipFiles(cmd);
  if (cmd.name === 'unzip') return unzipFiles(cmd);
  if (COMPRESSORS.has(cmd.name)) return compressorFiles(cmd);
  return null;
}
