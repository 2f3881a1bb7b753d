/**
 * The built-in read-only set (contract "Read-only commands" and "Assurance"): a closed allow-list. Each program
 * names its safe options; any other option (or an abbreviation of a long one) makes the command not read-only.
 * Options that run programs, write files, or follow symlinks while recursing are never listed. git and find have
 * their own tables (read-only-git.ts, read-only-find.ts); the commands that read files for Read rules are in
 * readers-table.ts.
 */
import { NONE_OPTS, spec, type CommandSpec } from '../programs/command-spec';
import { options } from '../programs/options';

const GREP = spec(
  `-E -F -G -P -e=pattern -f=file+pattern -i -y -w -x -z -s -v -V -m= -b -n -H -h -o -q -a -I -d= -D= -r -L -l -c -T -Z -U -A= -B= -C=
   --extended-regexp --fixed-strings --basic-regexp --perl-regexp --regexp=pattern --file=file+pattern --ignore-case --no-ignore-case
   --word-regexp --line-regexp --null-data --no-messages --invert-match --version --help --max-count= --byte-offset
   --line-number --line-buffered --with-filename --no-filename --label= --only-matching --quiet --silent --binary-files=
   --text --directories= --devices= --recursive --include= --exclude= --exclude-from=file --exclude-dir=
   --files-without-match --files-with-matches --count --initial-tab --null --before-context= --after-context= --context=
   --group-separator= --no-group-separator --color? --colour? --binary`,
  { operands: 'pattern-then-paths' },
  true,
);

const RG = spec(
  `-A= -B= -C= -b -s -c -E= -f=file+pattern -l -F -g= -h -i -v -n -x -M= -m= -U -I -N -0 -o -P -p -q -e=pattern -r= -S -a -j= -t= -T=
   -u -V -H -w -.
   --after-context= --auto-hybrid-regex --no-auto-hybrid-regex --before-context= --binary --no-binary --block-buffered
   --no-block-buffered --byte-offset --no-byte-offset --case-sensitive --color= --colors= --column --no-column --context=
   --context-separator= --no-context-separator --count --count-matches --crlf --no-crlf --debug --trace --dfa-size-limit=
   --encoding= --no-encoding --engine= --field-context-separator= --field-match-separator= --file=file+pattern --files!
   --files-with-matches --files-without-match --fixed-strings --no-fixed-strings --glob= --glob-case-insensitive
   --no-glob-case-insensitive --heading --no-heading --help --hidden --no-hidden --iglob= --ignore-case
   --ignore-file=file --ignore-file-case-insensitive --no-ignore-file-case-insensitive --include-zero --no-include-zero
   --invert-match --no-invert-match --json --no-json --line-buffered --no-line-buffered --line-number --line-regexp
   --max-columns= --max-columns-preview --no-max-columns-preview --max-count= --max-depth= --maxdepth= --max-filesize=
   --mmap --no-mmap --multiline --no-multiline --multiline-dotall --no-multiline-dotall --no-config --no-filename
   --with-filename --no-ignore --ignore --no-ignore-dot --ignore-dot --no-ignore-exclude --ignore-exclude
   --no-ignore-files --ignore-files --no-ignore-global --ignore-global --no-ignore-messages --ignore-messages
   --no-ignore-parent --ignore-parent --no-ignore-vcs --ignore-vcs --no-line-number --no-messages --messages
   --no-pcre2-unicode --pcre2-unicode --no-require-git --require-git --no-unicode --unicode --null --null-data
   --one-file-system --no-one-file-system --only-matching --passthru --passthrough --path-separator= --pcre2
   --no-pcre2 --pcre2-version --pretty --quiet --regex-size-limit= --regexp=pattern --replace= --smart-case
   --no-smart-case --sort= --sortr= --sort-files --no-sort-files --stats --no-stats --stop-on-nonmatch --text --no-text
   --threads= --trim --no-trim --type= --type-add= --type-clear= --type-list! --type-not= --unrestricted --version
   --vimgrep --word-regexp --files-with-matches --hyperlink-format= --no-follow --no-search-zip --line-regexp`,
  { operands: 'pattern-then-paths' },
);

const HEAD_TAIL = spec(
  `-c= -n= -q -v -z --bytes= --lines= --quiet --silent --verbose --zero-terminated --help --version`,
  { operands: 'paths' },
  true,
);
const TAIL = spec(
  `-c= -n= -q -v -z -f -F -s= --bytes= --lines= --quiet --silent --verbose --zero-terminated --follow? --retry
   --sleep-interval= --pid= --max-unchanged-stats= --help --version`,
  { operands: 'paths' },
  true,
);
const NONE = spec('--help --version', { operands: 'none' });
const CHECKSUM = spec(
  '-b -t -z -w --binary --text --tag --zero --quiet --status --strict --warn --ignore-missing --help --version',
  { operands: 'paths' },
);
const BASENC = spec('-d -i -w= --decode --ignore-garbage --wrap= --help --version', {
  operands: 'paths',
  maxOperands: 1,
});
const VERSION_ONLY: CommandSpec = { options: NONE_OPTS, operands: 'none', onlyFlags: ['--version', '-v', '-V'] };

/**
 * sed: read-only only with `-n` and print-only scripts (checked in read-only.ts, for the operand and for every
 * `-e`); `-i`, `-f` (a script we cannot see) and `-s`-style writes are not listed.
 */
const SED = spec(
  `-n -e=script -E -r -s -u -z -l= --quiet --silent --expression=script --regexp-extended --separate --unbuffered
   --null-data --line-length= --posix --sandbox --debug --help --version`,
  { operands: 'script-then-paths', requireFlag: /^(-[a-zA-Z]*n[a-zA-Z]*|--quiet|--silent)$/ },
);

export const READ_ONLY = new Map<string, CommandSpec>([
  [
    'ls',
    spec(
      `-a -A -b -B -c -C -d -D -f -F -g -G -h -H -i -k -l -m -n -N -o -p -q -Q -r -R -s -S -t -u -U -v -x -X -Z -1 -I= -T= -w=
       --all --almost-all --author --escape --block-size= --ignore-backups --color? --directory --dired --classify?
       --file-type --format= --full-time --group-directories-first --no-group --human-readable --si
       --dereference-command-line --dereference-command-line-symlink-to-dir --hide= --hyperlink? --indicator-style=
       --inode --ignore= --kibibytes --numeric-uid-gid --literal --hide-control-chars --show-control-chars --quote-name
       --quoting-style= --reverse --recursive --size --sort= --time= --time-style= --tabsize= --width= --context --zero
       --help --version`,
      { operands: 'paths' },
    ),
  ],
  ['pwd', spec('-L -P --help --version', { operands: 'none' })],
  [
    'cat',
    spec(
      '-A -b -e -E -n -s -t -T -u -v --show-all --number-nonblank --show-ends --number --squeeze-blank --show-tabs --show-nonprinting --help --version',
      { operands: 'paths' },
    ),
  ],
  ['tac', spec('-b -r -s= --before --regex --separator= --help --version', { operands: 'paths' })],
  [
    'nl',
    spec(
      `-b= -d= -f= -h= -i= -l= -n= -p -s= -v= -w= --body-numbering= --section-delimiter= --footer-numbering=
       --header-numbering= --line-increment= --join-blank-lines= --number-format= --no-renumber --number-separator=
       --starting-line-number= --number-width= --help --version`,
      { operands: 'paths' },
    ),
  ],
  ['head', HEAD_TAIL],
  ['tail', TAIL],
  [
    'wc',
    spec('-c -m -l -L -w --bytes --chars --lines --max-line-length --words --total= --help --version', {
      operands: 'paths',
    }),
  ],
  ['grep', GREP],
  ['egrep', GREP],
  ['fgrep', GREP],
  ['rg', RG],
  ['echo', { options: NONE_OPTS, operands: 'none', noOptions: true }],
  ['printf', { options: NONE_OPTS, operands: 'none', noOptions: true }],
  ['true', { options: NONE_OPTS, operands: 'none', noOptions: true }],
  ['false', { options: NONE_OPTS, operands: 'none', noOptions: true }],
  [':', { options: NONE_OPTS, operands: 'none', noOptions: true }],
  ['which', spec('-a -s --all --help --version', { operands: 'none' })],
  ['type', spec('-a -f -p -P -t', { operands: 'none' })],
  ['whoami', NONE],
  [
    'id',
    spec('-a -Z -g -G -n -r -u -z --context --group --groups --name --real --user --zero --help --version', {
      operands: 'none',
    }),
  ],
  [
    'uname',
    spec(
      '-a -s -n -r -v -m -p -i -o --all --kernel-name --nodename --kernel-release --kernel-version --machine --processor --hardware-platform --operating-system --help --version',
      { operands: 'none' },
    ),
  ],
  ['nproc', spec('--all --ignore= --help --version', { operands: 'none' })],
  ['arch', NONE],
  [
    'date',
    spec(
      '-d= -f=file -I? -R -r=file -u --date= --file=file --iso-8601? --rfc-email --rfc-3339= --reference=file --utc --universal --debug --resolution --help --version',
      { operands: 'none' },
    ),
  ],
  [
    'stat',
    spec('-L -f -c= -t --dereference --file-system --cached= --format= --printf= --terse --help --version', {
      operands: 'paths',
    }),
  ],
  [
    'file',
    spec(
      // Not -p/--preserve-date: it puts the access time back with utimensat, a write (the strace differential found it).
      `-b -c -e= -F= -i -k -l -L -h -n -N -0 -r -s -v -d -P= --brief --checking-printout --exclude= --exclude-quiet=
       --separator= --mime --apple --extension --mime-type --mime-encoding --keep-going --list --dereference
       --no-dereference --no-buffer --no-pad --print0 --parameter= --raw --special-files --debug --help --version`,
      { operands: 'paths' },
    ),
  ],
  [
    'du',
    spec(
      `-0 -a -b -c -D -d= -h -H -k -l -m -P -S -s -t= -X=file -x --null --all --apparent-size --block-size= --bytes --total
       --dereference-args --max-depth= --human-readable --inodes --count-links --no-dereference --separate-dirs --si
       --summarize --threshold= --time? --time-style= --exclude-from=file --exclude= --one-file-system -B= --help --version`,
      { operands: 'paths' },
    ),
  ],
  [
    'df',
    spec(
      '-a -B= -h -H -i -k -l -P -t= -T -x= --all --block-size= --human-readable --si --inodes --local --no-sync --sync --output? --portability --total --type= --print-type --exclude-type= --help --version',
      { operands: 'paths' },
    ),
  ],
  [
    'tree',
    spec(
      `-a -d -f -x -L= -P= -I= -i -s -h -D -F -q -N -Q -p -u -g -C -n -J -X -v -t -c -U -r --noreport --dirsfirst --filesfirst
       --gitignore --prune --matchdirs --ignore-case --du --si --charset= --filelimit= --timefmt= --sort= --help --version`,
      { operands: 'paths' },
    ),
  ],
  [
    'sort',
    spec(
      `-b -d -f -g -i -M -h -n -R -r -V -c -C -m -s -u -z -k= -S= -t= --ignore-leading-blanks --dictionary-order --ignore-case
       --general-numeric-sort --ignore-nonprinting --month-sort --human-numeric-sort --numeric-sort --random-sort --reverse
       --sort= --version-sort --batch-size= --check? --debug --key= --merge --stable --buffer-size= --field-separator=
       --parallel= --unique --zero-terminated --help --version`,
      { operands: 'paths' },
    ),
  ],
  [
    'uniq',
    spec(
      '-c -d -D -f= -i -s= -u -z -w= --count --repeated --all-repeated? --skip-fields= --group? --ignore-case --skip-chars= --unique --zero-terminated --check-chars= --help --version',
      { operands: 'paths', maxOperands: 1 },
      true,
    ),
  ],
  [
    'cut',
    spec(
      '-b= -c= -d= -f= -n -s -z --bytes= --characters= --delimiter= --fields= --complement --only-delimited --output-delimiter= --zero-terminated --help --version',
      { operands: 'paths' },
    ),
  ],
  [
    'tr',
    spec('-c -C -d -s -t --complement --delete --squeeze-repeats --truncate-set1 --help --version', {
      operands: 'none',
    }),
  ],
  ['basename', spec('-a -s= -z --multiple --suffix= --zero --help --version', { operands: 'none' })],
  ['dirname', spec('-z --zero --help --version', { operands: 'none' })],
  [
    'realpath',
    spec(
      '-e -m -L -P -q -s -z --canonicalize-existing --canonicalize-missing --logical --physical --quiet --relative-to=file --relative-base=file --strip --no-symlinks --zero --help --version',
      { operands: 'paths' },
    ),
  ],
  [
    'readlink',
    spec(
      '-f -e -m -n -q -s -v -z --canonicalize --canonicalize-existing --canonicalize-missing --no-newline --quiet --silent --verbose --zero --help --version',
      { operands: 'paths' },
    ),
  ],
  [
    'diff',
    spec(
      `-q -s -c -C= -u -U= -e -n -y -W= -p -F= -t -T -N -x= -X=file -S= -i -E -Z -b -w -B -I= -a -D= -d --normal --brief
       --report-identical-files --context? --unified? --ed --rcs --side-by-side --width= --left-column --suppress-common-lines
       --show-c-function --show-function-line= --label= --expand-tabs --initial-tab --tabsize= --suppress-blank-empty
       --no-dereference --new-file --unidirectional-new-file --ignore-file-name-case --no-ignore-file-name-case --exclude=
       --exclude-from=file --starting-file= --from-file=file --to-file=file --ignore-case --ignore-tab-expansion
       --ignore-trailing-space --ignore-space-change --ignore-all-space --ignore-blank-lines --ignore-matching-lines= --text
       --strip-trailing-cr --ifdef= --line-format= --old-line-format= --new-line-format= --unchanged-line-format=
       --old-group-format= --new-group-format= --unchanged-group-format= --changed-group-format= --minimal --horizon-lines=
       --speed-large-files --color? --palette= --help --version`,
      { operands: 'paths' },
    ),
  ],
  [
    'cmp',
    spec('-b -i= -l -n= -s --print-bytes --ignore-initial= --verbose --bytes= --quiet --silent --help --version', {
      operands: 'paths',
      maxOperands: 4,
    }),
  ],
  [
    'less',
    spec(
      '-a -b= -B -c -C -d -e -E -f -F -g -G -h= -i -I -j= -J -K -L -m -M -n -N -p= -P= -q -Q -r -R -s -S -u -U -V -w -W -x= -X -y= -z= -~ -#= --quit-if-one-screen --no-init --RAW-CONTROL-CHARS --raw-control-chars --chop-long-lines --LINE-NUMBERS --ignore-case --IGNORE-CASE --quiet --silent --squeeze-blank-lines --tabs= --pattern= --mouse --version --help',
      { operands: 'paths', unsafeWord: /^\+/ },
    ),
  ],
  [
    'more',
    spec(
      '-d -l -f -p -c -u -s -n= --silent --logical --no-pause --print-over --clean-print --squeeze --plain --lines= --help --version',
      { operands: 'paths', unsafeWord: /^\+/ },
      true,
    ),
  ],
  ['sed', SED],
  ['md5sum', CHECKSUM],
  ['sha1sum', CHECKSUM],
  ['sha224sum', CHECKSUM],
  ['sha256sum', CHECKSUM],
  ['sha384sum', CHECKSUM],
  ['sha512sum', CHECKSUM],
  ['b2sum', CHECKSUM],
  [
    'cksum',
    spec('-a= -l= -z --algorithm= --base64 --length= --raw --tag --untagged --zero --debug --help --version', {
      operands: 'paths',
    }),
  ],
  // binutils read `@FILE` arguments as more options: such a word is not read-only
  [
    'strings',
    spec(
      '-a -d -f -n= -t= -w -o -T= -e= -U= -s= --all --data --print-file-name --bytes= --radix= --include-all-whitespace --target= --encoding= --unicode= --output-separator= --help --version',
      { operands: 'paths', unsafeWord: /^@/ },
      true,
    ),
  ],
  [
    'od',
    spec(
      '-A= -j= -N= -S= -t= -v -w? -a -b -c -d -f -i -l -o -s -x --address-radix= --endian= --skip-bytes= --read-bytes= --strings? --format= --output-duplicates --width? --traditional --help --version',
      { operands: 'paths' },
    ),
  ],
  ['rev', spec('-0 --zero --help --version', { operands: 'paths' })],
  // encode or decode one file (or the input) to the output; a second operand is an error, never a target
  ['base64', BASENC],
  ['base32', BASENC],
  [
    'basenc',
    spec(
      `-d -i -w= --decode --ignore-garbage --wrap= --base64 --base64url --base32 --base32hex --base16 --base2msbf
       --base2lsbf --z85 --help --version`,
      { operands: 'paths', maxOperands: 1 },
    ),
  ],
  // text filters that print what they read: a second operand of xxd is an output file, never allowed
  ['xxd', spec('-a -b -C -d -e -E -i -p -u -r -v -c= -g= -l= -o= -s= -n= -R=', { operands: 'paths', maxOperands: 1 })],
  ['fold', spec('-b -s -w= --bytes --spaces --width= --help --version', { operands: 'paths' }, true)],
  [
    'fmt',
    spec(
      `-c -p= -s -t -u -w= -g= --crown-margin --prefix= --split-only --tagged-paragraph --uniform-spacing --width=
       --goal= --help --version`,
      { operands: 'paths' },
      true,
    ),
  ],
  ['expand', spec('-i -t= --initial --tabs= --help --version', { operands: 'paths' })],
  ['unexpand', spec('-a -t= --all --first-only --tabs= --help --version', { operands: 'paths' })],
  ['paste', spec('-d= -s -z --delimiters= --serial --zero-terminated --help --version', { operands: 'paths' })],
  [
    'comm',
    spec('-1 -2 -3 -z --check-order --nocheck-order --output-delimiter= --total --zero-terminated --help --version', {
      operands: 'paths',
      maxOperands: 2,
    }),
  ],
  [
    'join',
    spec(
      `-a= -e= -i -j= -o= -t= -v= -z -1= -2= --check-order --nocheck-order --header --ignore-case --zero-terminated
       --help --version`,
      { operands: 'paths', maxOperands: 2 },
    ),
  ],
  ['tsort', spec('--help --version', { operands: 'paths', maxOperands: 1 })],
  [
    'numfmt',
    spec(
      `-d= -z --debug --delimiter= --field= --format= --from= --from-unit= --grouping --header? --invalid= --padding=
       --round= --suffix= --to= --to-unit= --zero-terminated --help --version`,
      { operands: 'none' },
    ),
  ],
  ['sleep', NONE],
  // `test`/`[`: every word that is not an operator may be a path (a value compared with = lands inside, harmlessly)
  ['test', { options: NONE_OPTS, operands: 'paths', expression: true }],
  ['[', { options: NONE_OPTS, operands: 'paths', expression: true }],
  ['seq', spec('-f= -s= -w --format= --separator= --equal-width --help --version', { operands: 'none' }, true)],
  ['node', VERSION_ONLY],
  ['npm', VERSION_ONLY],
  ['python', VERSION_ONLY],
  ['python3', VERSION_ONLY],
  ['command', { options: options('-v -V'), operands: 'none', requireFlag: /^-[vV]+$/ }],
]);
