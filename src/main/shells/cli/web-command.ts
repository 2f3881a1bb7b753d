import fs from 'node:fs';
import path from 'node:path';
import { AppCore } from '../../services/app/app-core';
import { flushLogs } from '../../core/log/logger';
import { userConfigDir } from '../../core/fs/config-dir';
import { flushLastGoodWrites } from '../../core/settings/last-good-cache';
import { startWebServer } from '../web/web-server';
import { createNodeWorkerHost } from '../../services/worker-host/node-worker-host';
import { trustNetworkSettingsInProcess } from '../../core/network/process-trust';
import { parseCommandArgs } from './args';
import type { CliCommand, CommandHelp, OptionSpecs } from './command';
import { UsageError } from './command';
import { openInBrowser } from './open-browser';
import { projectDir } from './project';

export const DEFAULT_WEB_PORT = 4317;

const OPTIONS = {
  project: {
    type: 'string',
    value: 'DIR',
    help: 'open this project folder (default: none; the page offers your recent projects)',
  },
  port: {
    type: 'string',
    value: 'N',
    help: `the port on 127.0.0.1 (default ${DEFAULT_WEB_PORT}; 0 picks a free one)`,
  },
  open: {
    type: 'boolean',
    help: 'also open the page in your browser (not where GATEHOUSE_NO_OPEN=1, BROWSER=none, CI, or no display)',
  },
} as const satisfies OptionSpecs;

const HELP: CommandHelp = {
  description:
    'The app in your browser: the same page, engine, rules and approvals as the desktop app, served on 127.0.0.1 ' +
    'only. It prints one address with a random token in its fragment (#token=...): open it, and keep it to ' +
    'yourself. The model key comes from ANTHROPIC_API_KEY or the Settings page. Ctrl-C stops it.',
  forms: [{ usage: '[--project DIR] [--port N] [--open]', does: 'serve the app until Ctrl-C' }],
  options: OPTIONS,
  examples: [
    { command: 'gatehouse web --project ~/code/app --port 0 --open', does: 'a free port, opened in your browser' },
    {
      command: 'ANTHROPIC_BASE_URL=http://127.0.0.1:8080 gatehouse web --project .',
      does: 'the current folder, with a compatible model server',
    },
  ],
};

interface WebArgs {
  project: string | null;
  port: number;
  open: boolean;
}

export function parseWebArgs(args: string[], cwd: string): WebArgs {
  const { values, positionals } = parseCommandArgs(args, OPTIONS);
  if (values.project === '') throw new UsageError('--project needs a value');
  // A missing folder is named first, before the other arguments and before anything starts.
  const out: WebArgs = {
    project: values.project === undefined ? null : projectDir(values.project, cwd),
    port: DEFAULT_WEB_PORT,
    open: values.open === true,
  };
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const raw = values.port;
  if (raw === '') throw new UsageError('--port needs a value');
  if (raw !== undefined) {
    const port = /^\d{1,5}$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isInteger(port) || port < 0 || port > 65535)
      throw new UsageError(`--port must be 0..65535 (0 picks a free port), got "${raw}"`);
    out.port = port;
  }
  return out;
}

/**
 * The built renderer: out/renderer beside out/main, where the CLI bundle lives (this code may sit in a chunk folder
 * below it: the subcommands are loaded lazily).
 */
function rendererDir(): string {
  const candidates = [path.join(__dirname, '..', 'renderer'), path.join(__dirname, '..', '..', 'renderer')];
  return candidates.find((dir) => fs.existsSync(path.join(dir, 'index.html'))) ?? candidates[0]!;
}

/**
 * Resolves on the first SIGINT or SIGTERM. Later ones are taken and ignored while the server shuts down: a Ctrl-C
 * in a terminal reaches this process and also, passed on, through `npm start` and its launcher, and a second
 * delivery of the same Ctrl-C must not kill the process before the transcript and the logs are complete.
 */
function waitForStopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    process.on('SIGINT', resolve);
    process.on('SIGTERM', resolve);
  });
}

export const webCommand: CliCommand = {
  name: 'web',
  help: HELP,
  async run(args, io) {
    const { project, port, open } = parseWebArgs(args, io.cwd);
    const configDir = userConfigDir(io.env);
    const stopped = waitForStopSignal();
    const worker = createNodeWorkerHost({ configDir, env: io.env });
    trustNetworkSettingsInProcess({ configDir, env: io.env }); // auto mode's classifier runs in this process
    try {
      await worker.start();
    } catch (err) {
      // The page still opens and says plainly that the worker is unavailable (and why).
      io.err(`gatehouse web: the worker did not start: ${err instanceof Error ? err.message : String(err)}`);
    }
    let core: AppCore | undefined;
    try {
      const app = (core = new AppCore({ shell: 'browser', worker, configDir, project }));
      const server = await startWebServer({
        rendererDir: rendererDir(),
        port,
        handlers: app.handlers,
        onEvent: (l) => app.onEvent(l),
      });
      io.out(`Gatehouse is running at ${server.url}`);
      // Without --open stdout is that one line (scripts read it); with it, a person reads what the opener did below.
      if (open) {
        openInBrowser(server.launchUrl(), io.env, process.platform, io.out);
        io.out('Ctrl-C stops it.');
      }
      await stopped;
      await server.close();
    } finally {
      await core?.close(); // a run in progress ends cancelled, its transcript and the audit log complete
      await worker.stop();
      await flushLastGoodWrites(); // a settings entry being recorded is finished, not left half made
      await flushLogs(); // main.log and worker.log are complete before the process exits
    }
    return 0;
  },
};
