import { spawn } from 'node:child_process';

// `gatehouse web --open` (and so `npm start`): the page in the person's browser, if there is one to open. Never
// fails the command: where no browser can be opened it says why and the printed address stays the way in.

/** Why no browser is opened here, or null when one may be. An explicit BROWSER command wins over the guesses. */
export function noBrowserReason(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string | null {
  const off = (v: string | undefined): boolean => v !== undefined && v !== '' && v !== '0' && v !== 'false';
  if (off(env.GATEHOUSE_NO_OPEN)) return 'GATEHOUSE_NO_OPEN is set';
  if (env.BROWSER === 'none') return 'BROWSER=none';
  if (env.BROWSER) return null;
  if (off(env.CI)) return 'CI is set';
  if (platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY)
    return 'no display: DISPLAY and WAYLAND_DISPLAY are unset';
  return null;
}

/** The program that opens `url`: BROWSER (a command; the URL is its last argument), else the platform's opener. */
export function browserCommand(
  url: string,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform,
): { command: string; args: string[] } {
  const words = (env.BROWSER ?? '').split(/\s+/).filter(Boolean);
  if (words.length > 0) return { command: words[0]!, args: [...words.slice(1), url] };
  if (platform === 'darwin') return { command: 'open', args: [url] };
  if (platform === 'win32') return { command: 'rundll32', args: ['url.dll,FileProtocolHandler', url] };
  return { command: 'xdg-open', args: [url] };
}

/**
 * Opens `url` in the browser unless `noBrowserReason` says not to; `say` gets one line saying what happened (and a
 * later one if the opener could not be started or failed). The opener is detached: it outlives nothing of ours.
 */
export function openInBrowser(
  url: string,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform,
  say: (line: string) => void,
): void {
  const why = noBrowserReason(env, platform);
  if (why) {
    say(`Not opening a browser (${why}): open the address above.`);
    return;
  }
  const { command, args } = browserCommand(url, env, platform);
  let child;
  try {
    child = spawn(command, args, { detached: true, stdio: 'ignore', env });
  } catch (err) {
    say(`Could not start ${command} (${(err as Error).message}): open the address above.`);
    return;
  }
  say(`Opening it in your browser (${command}).`);
  child.once('error', (err: NodeJS.ErrnoException) =>
    say(`Could not start ${command} (${err.code ?? err.message}): open the address above.`),
  );
  child.once('exit', (code) => {
    if (code !== 0 && code !== null) say(`${command} exited with code ${code}: open the address above.`);
  });
  child.unref();
}
