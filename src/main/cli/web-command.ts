import type { CliCommand } from './command';

export const webCommand: CliCommand = {
  name: 'web',
  summary: 'serve the app in a browser on 127.0.0.1 (prints the URL with its token)',
  usage: 'gatehouse web [--project DIR] [--port N]',
  async run(_args, io) {
    io.err('not implemented yet');
    return 1;
  },
};
