import { options, parseOptions, type ParsedOptions } from './options';
import { files, type FileArg, type ProgramFiles } from './file-args';
import type { SimpleCommand } from '../types';

/**
 * Network programs read and write local files too: `curl -o FILE`/`-O` (named after the URL)/`-T FILE`/
 * `-d @FILE`/`-F x=@FILE`, `wget -O FILE`/`-P DIR`/`--post-file FILE`, and `rsync`/`scp` local sources and
 * destinations (a `host:path` operand is remote). A config file (`curl -K`, `wget -e`) can name any output: such a
 * command writes files the text does not show.
 */
const CURL = options(
  `-A= -b= -c=write -C= -d= -D=write -e= -E=file -F= -H= -K=file -m= -o=write -P= -Q= -r= -T=file -u= -U= -w= -x= -X= -y= -Y=
   -z= -t= --user-agent= --cookie= --cookie-jar=write --continue-at= --data= --data-ascii= --data-binary= --data-raw=
   --data-urlencode= --dump-header=write --referer= --cert=file --form= --form-string= --header= --config=file
   --max-time= --output=write --output-dir=write --ftp-port= --quote= --range= --upload-file=file --user= --proxy-user=
   --write-out= --proxy= --request= --speed-limit= --speed-time= --time-cond= --telnet-option= --key=file --cacert=file
   --capath= --netrc-file=file --trace=write --trace-ascii=write --stderr=write --libcurl=write --etag-save=write
   --etag-compare=file --json= --variable= --url= --resolve= --connect-to= --interface= --limit-rate= --retry=
   --connect-timeout= --max-filesize= --proxy-header= --unix-socket= --abstract-unix-socket= --hsts=write --alt-svc=write`,
);

/** `@FILE` (and `name@FILE`, `name=@FILE`, `name=<FILE` in forms) names a file curl reads. */
function atFile(value: string, form: boolean): string | null {
  if (value.startsWith('@')) return value.slice(1);
  if (form) {
    const m = /^[^=]*=[@<]([^;]*)/.exec(value);
    return m === null ? null : (m[1] as string);
  }
  const m = /^[A-Za-z0-9_.-]+@(.+)$/.exec(value);
  return m === null ? null : (m[1] as string);
}

function values(parsed: ParsedOptions, ...keys: string[]): FileArg[] {
  return keys.flatMap((k) => parsed.values.get(k) ?? []);
}

/** The file name `-O` saves a URL under: its last path segment. */
function remoteName(url: string): string {
  const path = url.replace(/^[a-z]+:\/\/[^/]*/i, '').split(/[?#]/)[0] ?? '';
  return path.split('/').filter(Boolean).pop() ?? 'index.html';
}

function curlFiles(cmd: SimpleCommand): ProgramFiles {
  const parsed = parseOptions(cmd.argv, CURL);
  const reads: FileArg[] = [...parsed.files];
  for (const v of values(
    parsed,
    'd',
    '--data',
    '--data-ascii',
    '--data-binary',
    '--data-urlencode',
    '--json',
    'H',
    '--header',
    'w',
    '--write-out',
    '--variable',
  )) {
    const f = atFile(v.value, false);
    if (f !== null && f !== '-') reads.push({ value: f, index: v.index });
  }
  for (const v of values(parsed, 'F', '--form')) {
    const f = atFile(v.value, true);
    if (f !== null && f !== '-') reads.push({ value: f, index: v.index });
  }
  for (const v of values(parsed, 'b', '--cookie')) if (!v.value.includes('=')) reads.push(v);
  const writes: FileArg[] = parsed.writes.filter((w) => w.value !== '-');
  const urls = [...parsed.operands, ...values(parsed, '--url')];
  if (parsed.seen.has('O') || parsed.seen.has('--remote-name') || parsed.seen.has('--remote-name-all')) {
    const dir = values(parsed, '--output-dir').pop()?.value;
    for (const u of urls)
      writes.push({ value: dir === undefined ? remoteName(u.value) : `${dir}/${remoteName(u.value)}`, index: u.index });
  }
  const config = parsed.seen.has('K') || parsed.seen.has('--config');
  const headerName = parsed.seen.has('J') || parsed.seen.has('--remote-header-name');
  const hidden = config
    ? 'curl -K reads options (and output files) from a file'
    : headerName
      ? 'curl -J names its output after the server'
      : null;
  return files({ reads: reads.filter((r) => r.value !== '-' && r.value !== '.'), writes, hiddenWrites: hidden });
}

const WGET = options(
  `-O=write -P=write -o=write -a=write -i=file -e= -t= -T= -w= -Q= -l= -U= -B= -D= -R= -A= -I= -X= --output-document=write
   --directory-prefix=write --output-file=write --append-output=write --input-file=file --execute= --tries= --timeout=
   --wait= --quota= --level= --user-agent= --base= --domains= --reject= --accept= --include-directories=
   --exclude-directories= --post-file=file --body-file=file --post-data= --body-data= --method= --header=
   --load-cookies=file --save-cookies=write --certificate=file --private-key=file --ca-certificate=file --user=
   --password= --referer= --limit-rate= --config=file`,
);

function wgetFiles(cmd: SimpleCommand): ProgramFiles {
  const parsed = parseOptions(cmd.argv, WGET);
  const explicit = values(parsed, 'O', '--output-document');
  const writes = parsed.writes.filter((w) => w.value !== '-');
  if (explicit.length === 0) {
    const dir = values(parsed, 'P', '--directory-prefix').pop()?.value;
    for (const u of parsed.operands)
      writes.push({ value: dir === undefined ? remoteName(u.value) : `${dir}/${remoteName(u.value)}`, index: u.index });
  }
  const config = parsed.seen.has('e') || parsed.seen.has('--execute') || parsed.seen.has('--config');
  return files({
    reads: parsed.files.filter((r) => r.value !== '-'),
    writes,
    hiddenWrites: config ? 'wget -e/--config can set where it writes' : null,
  });
}

/** `host:path`, `user@host:path`, `rsync://...`: not a local file. */
function isRemote(operand: string): boolean {
  return /^[a-z]+:\/\//i.test(operand) || /^[^/]*:/.test(operand);
}

const RSYNC = options(
  `-e= -f= -B= -T=write -M= --rsh= --exclude= --include= --exclude-from=file --include-from=file --files-from=file --filter=
   --backup-dir=write --log-file=write --password-file=file --partial-dir=write --temp-dir=write --link-dest= --compare-dest=
   --copy-dest= --chmod= --chown= --usermap= --groupmap= --timeout= --contimeout= --port= --bwlimit= --max-size=
   --min-size= --suffix= --out-format= --log-file-format= --block-size= --rsync-path= --iconv= --info= --debug=
   --max-delete= --modify-window= --sockopts= --outbuf= --remote-option= --checksum-choice= --compress-choice=
   --compress-level= --skip-compress= --stop-after= --stop-at= --write-batch=write --only-write-batch=write
   --read-batch=file`,
);
const SCP = options('-F=file -i=file -l= -o= -P= -S= -c= -J= -D= -X=');

function copyOverNetwork(cmd: SimpleCommand): ProgramFiles {
  const parsed = parseOptions(cmd.argv, cmd.name === 'rsync' ? RSYNC : SCP);
  const ops = parsed.operands;
  const local = (o: FileArg): boolean => !isRemote(o.value);
  const sources = (ops.length > 1 ? ops.slice(0, -1) : ops).filter(local);
  const dest = (ops.length > 1 ? ops.slice(-1) : []).filter(local);
  return files({ reads: [...sources, ...parsed.files], writes: [...dest, ...parsed.writes] });
}

export function networkFiles(cmd: SimpleCommand): ProgramFiles | null {
  switch (cmd.name) {
    case 'curl':
      return curlFiles(cmd);
    case 'wget':
      return wgetFiles(cmd);
    case 'rsync':
    case 'scp':
      return copyOverNetwork(cmd);
    default:
      return null;
  }
}
