import { runCli } from './main';
import { quietOnClosedPipe } from './stdio';

// The `gatehouse` binary. Never imports electron: the CLI runs on plain Node.
const whenClosed = new Set<() => void>();
const stdout = quietOnClosedPipe(process.stdout, () => {
  for (const fn of [...whenClosed]) fn();
});
const stderr = quietOnClosedPipe(process.stderr);
runCli(process.argv.slice(2), {
  out: (line) => stdout.write(line + '\n'),
  err: (line) => stderr.write(line + '\n'),
  env: process.env,
  cwd: process.cwd(),
  onOutputClosed: (fn) => {
    whenClosed.add(fn);
    return () => whenClosed.delete(fn);
  },
}).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    stderr.write(`gatehouse: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
