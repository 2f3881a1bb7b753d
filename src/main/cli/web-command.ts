import fs from 'node:fs';
import path from 'node:path';
import { AppCore } from '../app/app-core';
import { flushLogs } from '../log';
import { userConfigDir } from '../paths';
import { flushLastGoodWrites } from '../settings/last-good-cache';
import { startWebServer } from '../web/web-server';
import { createNodeWorkerHost } from '../worker-host/index';
import { parseCommandArgs } from './args';
import type { CliCommand } from './command';
import { UsageError } from './command';

export const DEFAULT_WEB_PORT = 4317;

interface WebArgs {
  project: string | null;
  port: number;
}

export function parseWebArgs(args: string[], cwd: string): WebArgs {
  const { values, positionals } = parseCommandArgs(args, { project: { type: 'string' }, port: { type: 'string' } });
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const out: WebArgs = { project: null, port: DEFAULT_WEB_PORT };
  if (values.project === '') throw new UsageError('--project needs a value');
  if (values.project !== undefined) out.project = path.resolve(cwd, values.project);
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

function waitForStopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      resolve(signal);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

export const webCommand: CliCommand = {
  name: 'web',
  usage: 'gatehouse web [--project DIR] [--port N]   (--port 0 picks a free port; default 4317)',
  async run(args, io) {
    const { project, port } = parseWebArgs(args, io.cwd);
    if (project && !fs.existsSync(project)) throw new UsageError(`--project: no such folder: ${project}`);
    const configDir = userConfigDir(io.env);
    const stopped = waitForStopSignal();
    const worker = createNodeWorkerHost({ configDir, env: io.env });
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
