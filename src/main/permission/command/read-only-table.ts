import type { OptionSpec } from './options';

/** How a command's operands are laid out. */
export interface CommandSpec extends OptionSpec {
  /**
   * `paths`: every operand is a path; `none`: operands are not paths (echo's text); `pattern-then-paths`: the
   * first operand is a pattern unless given by option (grep); `script-then-paths`: the same for a program
   * (sed, awk, jq); `all-but-last`: the last operand is a destination (cp); `first`: only the first operand
   * (source FILE ARGS...).
   */
  operands: 'paths' | 'none' | 'pattern-then-paths' | 'script-then-paths' | 'all-but-last' | 'first';
  /** More operands than this is not read-only (`uniq IN OUT` writes OUT). */
  maxOperands?: number;
  /** The command is read-only only with exactly these flags (`node --version`). */
  onlyFlags?: string[];
  /** With onlyFlags: also read-only with no arguments at all. */
  bare?: boolean;
  /** An argument matching this must be present (`sed -n`). */
  requireFlag?: RegExp;
  /** Any argument matching this makes it not read-only (`less +!cmd`). */
  unsafeWord?: RegExp;
}

const GREP: CommandSpec = {
  operands: 'pattern-then-paths',
  shortArg: 'efmABCdD',
  longArg: ['--regexp', '--file', '--max-count', '--after-context', '--before-context', '--context', '--directories', '--devices', '--include', '--exclude', '--exclude-from', '--exclude-dir', '--label', '--binary-files'],
  fileShort: 'f',
  fileLong: ['--file', '--exclude-from'],
  patternShort: 'ef',
  patternLong: ['--regexp', '--file'],
};

const RG: CommandSpec = {
  operands: 'pattern-then-paths',
  shortArg: 'efmABCgtTEMjrd',
  longArg: ['--regexp', '--file', '--max-count', '--after-context', '--before-context', '--context', '--glob', '--iglob', '--type', '--type-not', '--type-add', '--type-clear', '--encoding', '--max-columns', '--threads', '--replace', '--max-depth', '--max-filesize', '--sort', '--sortr', '--colors', '--color', '--path-separator', '--context-separator', '--field-match-separator', '--field-context-separator', '--ignore-file', '--engine', '--dfa-size-limit', '--regex-size-limit', '--pre-glob'],
  fileShort: 'f',
  fileLong: ['--file', '--ignore-file'],
  patternShort: 'ef',
  patternLong: ['--regexp', '--file', '--files', '--type-list'],
  unsafeLong: ['--pre'],
};

const HEAD_TAIL: CommandSpec = { operands: 'paths', shortArg: 'ncs', longArg: ['--lines', '--bytes', '--sleep-interval', '--pid', '--max-unchanged-stats'], numeric: true };
const PATHS: CommandSpec = { operands: 'paths' };
const NONE: CommandSpec = { operands: 'none' };
const SED: CommandSpec = {
  operands: 'script-then-paths',
  shortArg: 'efl',
  longArg: ['--expression', '--file', '--line-length'],
  fileShort: 'f',
  fileLong: ['--file'],
  patternShort: 'ef',
  patternLong: ['--expression', '--file'],
  unsafeShort: 'iefw',
  unsafeLong: ['--in-place', '--expression', '--file'],
  requireFlag: /^(-[a-zA-Z]*n[a-zA-Z]*|--quiet|--silent)$/,
};
const VERSION_ONLY: CommandSpec = { operands: 'none', onlyFlags: ['--version', '-v', '-V'] };

/** The built-in read-only set (git and find have their own rules). */
export const READ_ONLY = new Map<string, CommandSpec>([
  ['ls', { operands: 'paths', shortArg: 'ITw', longArg: ['--ignore', '--hide', '--width', '--tabsize', '--format', '--sort', '--time-style', '--block-size', '--quoting-style', '--indicator-style'] }],
  ['pwd', NONE],
  ['cat', PATHS],
  ['tac', PATHS],
  ['nl', { operands: 'paths', shortArg: 'bdfhilnsvw' }],
  ['head', HEAD_TAIL],
  ['tail', HEAD_TAIL],
  ['wc', { operands: 'paths', unsafeLong: ['--files0-from'] }],
  ['grep', GREP],
  ['egrep', GREP],
  ['fgrep', GREP],
  ['rg', RG],
  ['echo', NONE],
  ['printf', NONE],
  ['true', NONE],
  ['false', NONE],
  [':', NONE],
  ['which', NONE],
  ['type', NONE],
  ['whoami', NONE],
  ['id', NONE],
  ['uname', NONE],
  ['nproc', NONE],
  ['arch', NONE],
  ['date', { operands: 'none', shortArg: 'dfr', longArg: ['--date', '--file', '--reference'], fileShort: 'fr', fileLong: ['--file', '--reference'], unsafeShort: 's', unsafeLong: ['--set'] }],
  ['stat', { operands: 'paths', shortArg: 'c', longArg: ['--format', '--printf'] }],
  ['file', { operands: 'paths', shortArg: 'emfFP', longArg: ['--exclude', '--magic-file', '--files-from', '--separator', '--parameter'], fileShort: 'm', fileLong: ['--magic-file'], unsafeShort: 'Cf', unsafeLong: ['--compile', '--files-from'] }],
  ['du', { operands: 'paths', shortArg: 'BdtX', longArg: ['--block-size', '--max-depth', '--threshold', '--exclude-from', '--exclude', '--time-style'], fileShort: 'X', fileLong: ['--exclude-from'], unsafeLong: ['--files0-from'] }],
  ['df', { operands: 'paths', shortArg: 'Bt', longArg: ['--block-size', '--type', '--exclude-type', '--output'] }],
  ['tree', { operands: 'paths', shortArg: 'LPIH', longArg: ['--filelimit', '--timefmt', '--sort', '--charset'], unsafeShort: 'oR', unsafeLong: ['--output', '--fromfile'] }],
  ['sort', { operands: 'paths', shortArg: 'kStTo', longArg: ['--key', '--buffer-size', '--field-separator', '--parallel', '--batch-size', '--sort'], unsafeShort: 'oT', unsafeLong: ['--output', '--temporary-directory', '--compress-program', '--files0-from', '--random-source'] }],
  ['uniq', { operands: 'paths', shortArg: 'fsw', longArg: ['--skip-fields', '--skip-chars', '--check-chars', '--group', '--all-repeated'], maxOperands: 1 }],
  ['cut', { operands: 'paths', shortArg: 'bcfd', longArg: ['--bytes', '--characters', '--fields', '--delimiter', '--output-delimiter'] }],
  ['tr', NONE],
  ['basename', NONE],
  ['dirname', NONE],
  ['realpath', { operands: 'paths', longArg: ['--relative-to', '--relative-base'] }],
  ['readlink', PATHS],
  ['diff', { operands: 'paths', shortArg: 'CUFIxXSDLW', longArg: ['--context', '--unified', '--label', '--ignore-matching-lines', '--exclude', '--exclude-from', '--starting-file', '--ifdef', '--width', '--tabsize', '--line-format', '--from-file', '--to-file', '--horizon-lines', '--color', '--palette'], fileShort: 'X', fileLong: ['--exclude-from', '--from-file', '--to-file'], unsafeLong: ['--output'] }],
  ['cmp', { operands: 'paths', shortArg: 'in', longArg: ['--ignore-initial', '--bytes'], maxOperands: 4 }],
  ['less', { operands: 'paths', shortArg: 'bhjkpPtTxyz#', unsafeShort: 'oOk', unsafeLong: ['--log-file', '--LOG-FILE', '--lesskey-file'], unsafeWord: /^\+/ }],
  ['more', { operands: 'paths', shortArg: 'n', unsafeWord: /^\+/ }],
  ['sed', SED],
  ['md5sum', PATHS],
  ['sha1sum', PATHS],
  ['sha256sum', PATHS],
  ['sha512sum', PATHS],
  ['cksum', PATHS],
  ['strings', { operands: 'paths', shortArg: 'nt', longArg: ['--bytes', '--radix', '--encoding'] }],
  ['od', { operands: 'paths', shortArg: 'AjNtSw', longArg: ['--address-radix', '--skip-bytes', '--read-bytes', '--format', '--strings', '--width'] }],
  ['rev', PATHS],
  ['sleep', NONE],
  // `test`/`[` only look: every operand that could be a path is confined (operators and values land inside)
  ['test', PATHS],
  ['[', PATHS],
  ['seq', NONE],
  ['node', VERSION_ONLY],
  ['npm', VERSION_ONLY],
  ['python', VERSION_ONLY],
  ['python3', VERSION_ONLY],
  ['command', { operands: 'none', requireFlag: /^-[vV]+$/ }],
]);

/** Commands that read the files named in their arguments (for Read rules), whatever else they do. */
export const READERS = new Map<string, CommandSpec>([
  ...[...READ_ONLY].filter(([name, spec]) => spec.operands !== 'none' && !['ls', 'du', 'df', 'tree', 'stat', 'realpath', 'readlink'].includes(name)),
  ['sed', { ...SED, unsafeShort: undefined, unsafeLong: undefined }],
  ['awk', { operands: 'script-then-paths', shortArg: 'fvF', fileShort: 'f', patternShort: 'f' }],
  ['gawk', { operands: 'script-then-paths', shortArg: 'fvF', fileShort: 'f', patternShort: 'f' }],
  ['mawk', { operands: 'script-then-paths', shortArg: 'fvF', fileShort: 'f', patternShort: 'f' }],
  ['jq', { operands: 'script-then-paths', shortArg: 'f', longArg: ['--from-file', '--arg', '--argjson', '--indent'], fileShort: 'f', fileLong: ['--from-file'], patternShort: 'f', patternLong: ['--from-file'] }],
  ['cp', { operands: 'all-but-last', shortArg: 'St', longArg: ['--suffix', '--target-directory'] }],
  ['source', { operands: 'first' }],
  ['.', { operands: 'first' }],
  ['xxd', { operands: 'first', shortArg: 'cglosnC' }],
  ['hexdump', { operands: 'paths', shortArg: 'enNsf', fileShort: 'f' }],
  ['base64', { operands: 'paths', shortArg: 'w' }],
  ['uniq', { operands: 'first', shortArg: 'fsw' }],
  ['paste', { operands: 'paths', shortArg: 'd' }],
  ['comm', PATHS],
  ['join', { operands: 'paths', shortArg: 'aejotv12' }],
  ['fold', { operands: 'paths', shortArg: 'w' }],
  ['column', { operands: 'paths', shortArg: 'cstoNRHOW' }],
  ['bat', { operands: 'paths', shortArg: 'lrmH' }],
  ['zcat', PATHS],
]);
