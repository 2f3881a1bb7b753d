import { WORKER_PROTOCOL_VERSION } from '../shared/worker-protocol';
import type { AgentRunResult, WorkerInfo } from '../shared/worker-protocol';
import type { Decision } from '../shared/permission';
import { GATEHOUSE_VERSION } from '../shared/version';
import { AgentService } from './agent-service';
import { measureCommandOutput, measureToolRoundtrip } from './bench-service';
import { settleWithin } from '../shared/settle-within';
import { exitOnFatalErrors } from './fatal';
import { connectToMain } from './port';
import { WorkerRpc } from './rpc-server';
import { measureSandboxOverhead } from '../sandbox/overhead';
import { testMcpServer } from './mcp/run-mcp';
import { WorkerNetworkTrust } from './network-trust';

// The worker process: runs as an Electron utility process or a Node child process, from the same bundle.
const port = connectToMain();
// A tool or library bug leaves the worker in an unknown state: it is logged, the worker exits, main starts a new one.
exitOnFatalErrors({ cleanup: () => agents.dispose() });
const info: WorkerInfo = {
  protocol: WORKER_PROTOCOL_VERSION,
  version: GATEHOUSE_VERSION,
  pid: process.pid,
  runtime: port.runtime,
  nodeVersion: process.versions.node,
  startedAt: new Date().toISOString(),
  envNames: Object.keys(process.env).sort(),
};

const network = new WorkerNetworkTrust();
const agents: AgentService = new AgentService({
  port,
  networkTrust: () => network.required(),
  requestPermission: (request): Promise<Decision> => rpc.callMain('permission.request', request),
  checkReadable: (request) => rpc.callMain('permission.readable', request),
  hookEvent: (request) => rpc.callMain('hooks.event', request),
  reportMcp: (report) => rpc.callMain('mcp.servers', report),
});

const rpc: WorkerRpc = new WorkerRpc(port, {
  info: async () => info,
  delay: async ({ ms }) => {
    const start = Date.now();
    await new Promise((r) => setTimeout(r, ms));
    return { sleptMs: Date.now() - start };
  },
  echo: async ({ value }) => ({ value }),
  'agent.run': (params): Promise<AgentRunResult> => agents.run(params),
  'agent.cancel': async ({ runId }) => agents.cancel(runId),
  'sandbox.status': ({ projectRoot, additionalDirectories, sandbox }) =>
    agents.confinement.status(projectRoot, additionalDirectories, sandbox),
  // A server over HTTP trusts what a run's would; a broken CA file shows as the connection's error there.
  'mcp.test': async (params) => {
    await network.ready();
    return testMcpServer(params);
  },
  'sandbox.dispose': async () => {
    await agents.confinement.dispose();
    return { disposed: true };
  },
  'bench.sandboxOverhead': ({ runs }) => measureSandboxOverhead(runs),
  'bench.commandOutput': (params) => measureCommandOutput(params),
  'bench.toolRoundtrip': (params) =>
    measureToolRoundtrip(params, (request) => rpc.callMain('permission.request', request)),
});

// The sandboxes' private temp dirs and proxies go with the worker when it is asked to stop (SIGTERM: from the
// supervisor, or sent to the whole process group) and when main is gone. A second signal while it cleans up does not
// cut that short; the cleanup gets a second (with main gone, nobody would send the SIGKILL that ends a stuck one).
let stopping = false;
const stop = (): void => {
  if (stopping) return;
  stopping = true;
  void settleWithin(() => agents.dispose(), 1_000).then(() => process.exit(0));
};
process.on('SIGTERM', stop);
port.onGone(stop);
// Ctrl-C in a terminal reaches every process of the foreground group, this one included. What it means is main's to
// decide (`gatehouse run` and `rpc` cancel the run, `web` stops): main tells the worker, which must not die of it.
process.on('SIGINT', () => undefined);

port.send({ kind: 'hello', info });
