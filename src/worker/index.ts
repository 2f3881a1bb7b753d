import { WORKER_PROTOCOL_VERSION } from '../shared/worker-protocol';
import type { WorkerInfo } from '../shared/worker-protocol';
import { GATEHOUSE_VERSION } from '../shared/version';
import { connectToMain } from './port';
import { WorkerRpc } from './rpc-server';

// The worker process: runs as an Electron utility process or a Node child process, from the same bundle.
const port = connectToMain();
const info: WorkerInfo = {
  protocol: WORKER_PROTOCOL_VERSION,
  version: GATEHOUSE_VERSION,
  pid: process.pid,
  runtime: port.runtime,
  nodeVersion: process.versions.node,
  startedAt: new Date().toISOString(),
  envNames: Object.keys(process.env).sort(),
};

new WorkerRpc(port, {
  info: async () => info,
  delay: async ({ ms }) => {
    const start = Date.now();
    await new Promise((r) => setTimeout(r, ms));
    return { sleptMs: Date.now() - start };
  },
  echo: async ({ value }) => ({ value }),
});

// A tool or library bug must become an error, never a silent dead worker.
process.on('uncaughtException', (err) => {
  process.stderr.write(`gatehouse worker: uncaught exception: ${err.stack ?? err.message}\n`);
});
process.on('unhandledRejection', (reason) => {
  process.stderr.write(`gatehouse worker: unhandled rejection: ${String(reason)}\n`);
});

port.send({ kind: 'hello', info });
