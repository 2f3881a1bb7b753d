import { parseCommandArgs } from './args';
import type { CliCommand, CommandHelp, OptionSpecs } from './command';
import { UsageError } from './command';
import { findDesktopApp, startDetached } from './desktop-app';
import { projectDir } from './project';
import { webCommand } from './web-command';

const OPTIONS = {
  web: {
    type: 'boolean',
    help: 'open it in the browser shell even when the desktop app is installed',
  },
} as const satisfies OptionSpecs;

const HELP: CommandHelp = {
  description:
    'Opens a folder (default: the current one) in the Gatehouse desktop app; if it is already running, its window ' +
    'switches to the folder. The app is found through GATEHOUSE_DESKTOP (its path), else where the packages install ' +
    'it. Without the desktop app, the browser shell starts on the folder, as `gatehouse web --project DIR --open` on ' +
    'a free port, until Ctrl-C. `gatehouse .` is `gatehouse open .`.',
  forms: [{ usage: '[DIR] [--web]', does: 'open DIR in the desktop app, else in your browser' }],
  options: OPTIONS,
  examples: [
    { command: 'gatehouse open ~/code/app', does: 'that folder in the desktop app' },
    { command: 'gatehouse open . --web', does: 'the current folder in your browser, served until Ctrl-C' },
  ],
};

export const openCommand: CliCommand = {
  name: 'open',
  help: HELP,
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(args, OPTIONS);
    if (positionals.length > 1) throw new UsageError(`unexpected argument "${positionals[1]}"`);
    const dir = projectDir(positionals[0] ?? '.', io.cwd);
    const web = (why: string): Promise<number> => {
      io.err(why);
      return webCommand.run(['--project', dir, '--port', '0', '--open'], io);
    };
    if (values.web === true) return web(`Opening ${dir} in the browser shell.`);
    const app = findDesktopApp(io.env, process.platform);
    if ('error' in app) {
      io.err(`gatehouse open: ${app.error}`);
      return 1;
    }
    if ('none' in app)
      return web(
        `No Gatehouse desktop app found (looked for ${app.none.join(', ')}; GATEHOUSE_DESKTOP names another): ` +
          `opening ${dir} in the browser shell instead.`,
      );
    try {
      // The folder is the app's one argument, absolute: never taken for a switch or a link.
      await startDetached(app.file, [dir], io.env);
    } catch (err) {
      io.err(`gatehouse open: could not start ${app.file}: ${err instanceof Error ? err.message : String(err)}`);
      return 1;
    }
    io.out(`Opening ${dir} in the Gatehouse desktop app.`);
    return 0;
  },
};
