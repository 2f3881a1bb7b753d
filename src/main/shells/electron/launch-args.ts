import path from 'node:path';
import { z } from 'zod';
import { isAppLink } from './open-requests';

// The folder a launch asks to open (`gatehouse-desktop ~/code/app`), for the first instance and for a second one
// that hands its arguments to the first. Pure: no electron import.

/** What a second instance sends to the first (`app.requestSingleInstanceLock(data)`), checked on arrival. */
const LaunchRequestSchema = z.strictObject({
  args: z.array(z.string().max(4096)).max(64),
  cwd: z.string().min(1).max(4096),
});
export type LaunchRequest = z.infer<typeof LaunchRequestSchema>;

/**
 * The user's own arguments of this process: after the executable; in development (`electron .`, where
 * `process.defaultApp` is true) after the app's folder (`appPath`, matched resolved against `cwd`), so that
 * switches and files Electron or a test harness put before it are never taken for the user's; none if it is not
 * found.
 */
export function userArgs(argv: readonly string[], defaultApp: boolean, appPath: string, cwd: string): string[] {
  if (!defaultApp) return argv.slice(1);
  const at = argv.findIndex((arg, i) => i > 0 && !arg.startsWith('-') && path.resolve(cwd, arg) === appPath);
  return at === -1 ? [] : argv.slice(at + 1);
}

/**
 * The folder to open, as an absolute path, or null: the first argument that is not a switch (Chromium's,
 * Electron's or macOS's `-psn_…`), resolved against the launch's working directory. Arguments after `--` are
 * never switches. Whether it is a folder is checked where it is opened (AppCore.openProject).
 */
export function projectFromArgs(args: readonly string[], cwd: string): string | null {
  let afterDashes = false;
  for (const arg of args) {
    if (!afterDashes && arg === '--') {
      afterDashes = true;
      continue;
    }
    if (!afterDashes && arg.startsWith('-')) continue;
    if (arg.length === 0 || arg.includes('\0')) continue;
    return path.resolve(cwd, arg);
  }
  return null;
}

/** What a launch asks for: a folder to open, a `gatehouse:` link (opened only once the person agrees), or nothing. */
export type LaunchTarget = { folder: string } | { link: string } | null;

/**
 * What the arguments ask for. A `gatehouse:` link (how Windows and Linux hand one over) wins, and then the other
 * arguments are ignored: a crafted link could smuggle more arguments in, and none of them may open a folder unasked.
 */
export function launchTarget(args: readonly string[], cwd: string): LaunchTarget {
  const link = args.find(isAppLink);
  if (link !== undefined) return { link };
  const folder = projectFromArgs(args, cwd);
  return folder === null ? null : { folder };
}

/**
 * What a second instance asks for: from its `additionalData` (exact arguments and working directory) when valid,
 * else from the `argv` Electron passes (reordered, with switches Chromium added), else null.
 */
export function launchFromSecondInstance(
  argv: readonly string[],
  workingDirectory: string,
  additionalData: unknown,
): LaunchTarget {
  const data = LaunchRequestSchema.safeParse(additionalData);
  if (data.success) return launchTarget(data.data.args, data.data.cwd);
  // argv[0] is the executable; a development launch's app folder is indistinguishable here, so only a packaged
  // second instance without additionalData relies on this.
  return launchTarget(argv.slice(1), workingDirectory);
}
