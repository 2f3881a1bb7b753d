import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import { properLockfile } from '../../core/fs/proper-lockfile';
import { userCacheDir } from '../../../shared/node/user-folders';
import { initShellParser, shellParserWasmFiles } from '../../core/shell-analysis/parse/parser';
import { enableCodeCache } from '../../../shared/node/code-cache';
import type { CommandEntry } from './command';
import { runCli } from './main';
import { quietOnClosedPipe } from './stdio';

/** Sets this process up for `command` before its code loads: V8 and zod flags, signal handling, the code cache. */
function prepare(command: CommandEntry | undefined, entryDir: string): void {
  // The bash grammar's WebAssembly is compiled with Liftoff only, in every process (see parser.ts). Set here too,
  // before any code is compiled: the code cache below keeps V8's flags with the code, and one set later would make
  // every run's cache unusable.
  v8.setFlagsFromString('--liftoff-only');
  const oneShot = !command?.longLived;
  // zod compiles each object schema's parser with `new Function` when it first parses (its "JIT"): a one-shot
  // process parses each schema about once, so compiling costs more than it saves; a long-lived one keeps it. zod
  // reads this global when it loads, as z.config() (test/unit/cli/zod-config.test.ts checks that it still does).
  if (oneShot) (globalThis as { __zod_globalConfig?: { jitless?: boolean } }).__zod_globalConfig = { jitless: true };
  // A long-lived command loads proper-lockfile before it listens for signals: its signal-exit adds SIGINT/SIGTERM
  // listeners that re-send the signal when they find no other listener, and a listener of ours that removes itself
  // when called (process.once) would be gone by the time one added after it runs, killing the process mid-shutdown
  // (exit 143). One-shot commands load it on first use (see src/main/core/fs/proper-lockfile.ts) and listen for no signal.
  if (command?.longLived) properLockfile();
  // The subcommand's code is compiled once and cached (code-cache.ts); GATEHOUSE_CODE_CACHE=0 turns it off.
  if (command && process.env.GATEHOUSE_CODE_CACHE !== '0') {
    enableCodeCache({
      chunkDir: path.join(entryDir, 'cli-chunks'),
      cacheDir: userCacheDir(process.env),
      variant: `${command.name}-liftoff`,
    });
  }
}

/**
 * Runs `gatehouse` in this process: the usual path for every command, and the fallback of the per-call commands
 * when the decision helper cannot answer. `entryDir` is the folder of the `gatehouse` entry (out/main); `stdin` is the
 * command's input when the client already read it.
 */
export function runInProcess(
  argv: string[],
  command: CommandEntry | undefined,
  entryDir: string,
  stdin?: () => Promise<string>,
): void {
  prepare(command, entryDir);
  // A command that judges shell commands starts loading the bash grammar at once: the files are read synchronously
  // so that V8 validates both WebAssembly modules on its background threads while this thread loads the command's
  // code. (Compiling every function up front there instead of lazily costs a process more CPU than it saves: not
  // done.) A failure here is not reported: the engine awaits the same load, which tries again and reports.
  if (command?.parsesShell === true) {
    try {
      const files = shellParserWasmFiles();
      initShellParser({ runtime: fs.readFileSync(files.runtime), grammar: fs.readFileSync(files.grammar) }).catch(
        () => undefined,
      );
    } catch {
      // unreadable here: the engine's own load reports it
    }
  }

  const whenClosed = new Set<() => void>();
  const stdout = quietOnClosedPipe(process.stdout, () => {
    for (const fn of [...whenClosed]) fn();
  });
  const stderr = quietOnClosedPipe(process.stderr);
  runCli(argv, {
    out: (line) => stdout.write(line + '\n'),
    err: (line) => stderr.write(line + '\n'),
    env: process.env,
    cwd: process.cwd(),
    ...(stdin ? { stdin } : {}),
    onOutputClosed: (fn) => {
      whenClosed.add(fn);
      return () => whenClosed.delete(fn);
    },
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      stderr.write(`gatehouse: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
