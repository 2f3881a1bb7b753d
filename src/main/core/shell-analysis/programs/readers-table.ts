import { NONE_OPTS, PATHS_ONLY, spec, type CommandSpec } from './command-spec';
import { READ_ONLY } from '../read-only/read-only-table';

/** Commands that read the files named in their arguments (for Read rules), whatever else they do. */
export const READERS = new Map<string, CommandSpec>([
  ...[...READ_ONLY].filter(
    ([name, s]) => s.operands !== 'none' && !['ls', 'du', 'df', 'tree', 'stat', 'realpath', 'readlink'].includes(name),
  ),
  [
    'sed',
    spec('-e=pattern -f=file+pattern -l= -i? --expression=pattern --file=file+pattern --line-length= --in-place?', {
      operands: 'pattern-then-paths',
    }),
  ],
  [
    'awk',
    spec('-f=file+pattern -v= -F= -E=file+pattern --file=file+pattern --assign= --field-separator=', {
      operands: 'script-then-paths',
    }),
  ],
  [
    'gawk',
    spec(
      '-f=file+pattern -v= -F= -E=file+pattern -i=file --file=file+pattern --assign= --field-separator= --include=file',
      { operands: 'script-then-paths' },
    ),
  ],
  ['mawk', spec('-f=file+pattern -v= -F=', { operands: 'script-then-paths' })],
  [
    'jq',
    spec('-f=file+pattern --from-file=file+pattern --arg= --argjson= --indent= --slurpfile= --rawfile=', {
      operands: 'script-then-paths',
    }),
  ],
  ['source', { options: NONE_OPTS, operands: 'first', noOptions: true }],
  ['.', { options: NONE_OPTS, operands: 'first', noOptions: true }],
  ['xxd', spec('-c= -g= -l= -o= -s= -n= -C=', { operands: 'first' })],
  ['hexdump', spec('-e= -n= -s= -f=file', { operands: 'paths' })],
  ['base64', spec('-w=', { operands: 'paths' })],
  ['base32', spec('-w=', { operands: 'paths' })],
  ['uniq', spec('-f= -s= -w=', { operands: 'first' })],
  ['paste', spec('-d=', { operands: 'paths' })],
  ['comm', PATHS_ONLY],
  ['join', spec('-a= -e= -j= -o= -t= -v= -1= -2=', { operands: 'paths' })],
  ['fold', spec('-w=', { operands: 'paths' })],
  ['column', spec('-c= -s= -t -o= -N= -R= -H= -O= -W=', { operands: 'paths' })],
  ['bat', spec('-l= -r= -m= -H=', { operands: 'paths' })],
  ['zcat', PATHS_ONLY],
  ['bzcat', PATHS_ONLY],
  ['xzcat', PATHS_ONLY],
  ['zless', PATHS_ONLY],
  ['split', spec('-a= -b= -C= -l= -n= -t=', { operands: 'first' })],
  ['shuf', spec('-n= -o= -e --random-source=file', { operands: 'paths' })],
  ['iconv', spec('-f= -t= -o=', { operands: 'paths' })],
  ['expand', spec('-t=', { operands: 'paths' })],
  ['unexpand', spec('-t=', { operands: 'paths' })],
  ['fmt', spec('-w= -p=', { operands: 'paths' })],
  ['pr', spec('-h= -l= -w= -o= -N=', { operands: 'paths' })],
  ['tsort', PATHS_ONLY],
  ['ptx', PATHS_ONLY],
  ['openssl', { options: NONE_OPTS, operands: 'none' }],
]);
