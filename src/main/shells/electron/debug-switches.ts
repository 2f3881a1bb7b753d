// Command-line switches a packaged build refuses. Pure: no electron import.

/**
 * `--remote-debugging-port` / `--remote-debugging-pipe` hand the Chrome DevTools Protocol to whoever starts the
 * app (no fuse covers them): a local process could drive the page and answer approvals through the bridge. The
 * Node inspector switches are ignored by the `enableNodeCliInspectArguments` fuse; they are refused here too so a
 * build without the fuses is not silently debuggable.
 */
const REFUSED_SWITCHES = [
  'remote-debugging-port',
  'remote-debugging-pipe',
  'remote-debugging-address',
  'inspect',
  'inspect-brk',
  'inspect-port',
] as const;

/** The part of `app.commandLine` used here (Chromium's parsed switches, which decide what Chromium starts). */
export interface CommandLineLike {
  hasSwitch(name: string): boolean;
  removeSwitch(name: string): void;
}

/**
 * The refused switches present on this command line, each removed from it. Electron runs the main script before
 * it reads `remote-debugging-*` (ElectronBrowserMainParts::PreMainMessageLoopRun), so removing them here means the
 * DevTools server never starts even before the app exits. `argv` is checked too (Node's own `--inspect=` forms).
 */
export function takeRefusedSwitches(commandLine: CommandLineLike, argv: readonly string[]): string[] {
  const found = new Set<string>();
  for (const name of REFUSED_SWITCHES) {
    if (commandLine.hasSwitch(name)) {
      found.add(name);
      commandLine.removeSwitch(name);
    }
  }
  for (const arg of argv) {
    if (arg === '--') break;
    const m = /^--?([a-z-]+)(?:=|$)/.exec(arg);
    if (m && (REFUSED_SWITCHES as readonly string[]).includes(m[1]!)) found.add(m[1]!);
  }
  return [...found];
}
