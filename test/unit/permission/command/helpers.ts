import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { analyzeCommand } from '../../../../src/main/core/shell-analysis/analyze';
import { hardDenyReason, hardDenyWriteReason } from '../../../../src/main/core/shell-analysis/deny-list/deny-list';
import { type CommandAnalysis, type CommandContext } from '../../../../src/main/core/shell-analysis/types';
import { settle } from '../../../../src/main/core/paths/fs-view';

/** argv of every simple command found, in order. */
export function argvs(command: string): string[][] {
  return analyzeCommand(command).commands.map((c) => c.argv);
}

/** Names of every simple command found, in order. */
export function names(command: string): string[] {
  return analyzeCommand(command).commands.map((c) => c.name);
}

/** Where a command runs, without the view of the disk (`onDisk` adds it). */
type Place = Omit<CommandContext, 'fs'>;

/** `fn` in `place`, looking at the disk as the engine does (fetched without blocking, see fs-view.ts). */
export function onDisk<T>(place: Place, fn: (ctx: CommandContext) => T): Promise<T> {
  return settle((fs) => fn({ ...place, fs }));
}

/** The first deny reason the built-in deny list gives for a command line, as the engine's hard stage would. */
export function denyReason(command: string, place: Place): Promise<string | null> {
  const a: CommandAnalysis = analyzeCommand(command);
  if (a.forkBomb) return Promise.resolve(a.forkBomb);
  return onDisk(place, (ctx) => {
    for (const c of a.commands) {
      const r = hardDenyReason(c, ctx);
      if (r !== null) return r;
    }
    for (const w of a.writes) {
      const r = hardDenyWriteReason(w);
      if (r !== null) return r;
    }
    return null;
  });
}

/** A real temp project at <tmp>/x/y and a fake home at <tmp>/home/me, all real paths. */
export function makeContext(): Place & { base: string } {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gh-cmd-')));
  const projectRoot = path.join(base, 'x', 'y');
  const home = path.join(base, 'home', 'me');
  fs.mkdirSync(projectRoot, { recursive: true });
  fs.mkdirSync(home, { recursive: true });
  return { base, projectRoot, home };
}

export function removeContext(ctx: { base: string }): void {
  fs.rmSync(ctx.base, { recursive: true, force: true });
}
