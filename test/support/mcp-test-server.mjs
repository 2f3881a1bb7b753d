// A small MCP server for tests, built with the official SDK: stdio by default, Streamable HTTP with `--http`
// (prints `listening <port>` on stdout). Its tools: write a marker file, crash the process, a read-only peek, a huge
// result, read a file, reach a host, list its environment; plus two tools a client must leave out (a schema that
// is not an object, a name no model tool may have).
import * as fs from 'node:fs/promises';
import * as http from 'node:http';
import * as net from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const obj = (properties = {}, required = []) => ({ type: 'object', properties, required });
const TOOLS = [
  {
    name: 'write_marker',
    description: 'Writes a marker file.',
    inputSchema: obj({ path: { type: 'string' } }, ['path']),
  },
  { name: 'crash', description: 'Exits the server process with code 3.', inputSchema: obj() },
  {
    name: 'peek',
    description: 'Safe, read-only: always allowed.',
    inputSchema: obj(),
    annotations: { readOnlyHint: true },
  },
  { name: 'huge', description: 'Returns a very large result.', inputSchema: obj() },
  { name: 'read_text', description: 'Reads a file.', inputSchema: obj({ path: { type: 'string' } }, ['path']) },
  {
    name: 'reach',
    description: 'Opens a TCP connection to host:port (directly, or through HTTPS_PROXY when set).',
    inputSchema: obj({ host: { type: 'string' }, port: { type: 'number' } }, ['host', 'port']),
  },
  { name: 'env_names', description: 'Lists its environment variable names.', inputSchema: obj() },
  { name: 'not_object', description: 'Its schema is not an object.', inputSchema: { type: 'string' } },
  { name: 'bad name!', description: 'Its name is not a valid tool name.', inputSchema: obj() },
];

const text = (t, isError = false) => ({ content: [{ type: 'text', text: t }], isError });

function connectDirect(host, port) {
  return new Promise((resolve) => {
    const s = net.connect({ host, port });
    s.once('connect', () => {
      s.destroy();
      resolve('reached');
    });
    s.once('error', (err) => resolve(`blocked: ${err.code ?? err.message}`));
  });
}

function connectViaProxy(proxy, host, port) {
  return new Promise((resolve) => {
    const req = http.request({
      host: proxy.hostname,
      port: Number(proxy.port),
      method: 'CONNECT',
      path: `${host}:${port}`,
    });
    req.once('connect', (res, socket) => {
      socket.destroy();
      resolve(res.statusCode === 200 ? 'reached' : `blocked: proxy answered ${res.statusCode}`);
    });
    req.once('error', (err) => resolve(`blocked: ${err.code ?? err.message}`));
    req.end();
  });
}

async function call(name, args) {
  switch (name) {
    case 'write_marker':
      await fs.writeFile(args.path, 'marker\n');
      return text(`wrote ${args.path}`);
    case 'crash':
      setImmediate(() => process.exit(3));
      return new Promise(() => {}); // never answers: the process is gone
    case 'peek':
      return text('peeked');
    case 'huge':
      return text(`HEAD-${'x'.repeat(200_000)}-TAIL`);
    case 'read_text':
      try {
        return text(await fs.readFile(args.path, 'utf8'));
      } catch (err) {
        return text(`cannot read: ${err.code ?? err.message}`, true);
      }
    case 'reach': {
      const proxy = process.env.HTTPS_PROXY ? new URL(process.env.HTTPS_PROXY) : null;
      return text(
        proxy ? await connectViaProxy(proxy, args.host, args.port) : await connectDirect(args.host, args.port),
      );
    }
    case 'env_names':
      return text(Object.keys(process.env).sort().join('\n'));
    default:
      return text(`unknown tool ${name}`, true);
  }
}

// `--start-marker=FILE`: the process writes FILE when it starts (a test's proof that it ran at all).
const startMarker = process.argv.find((a) => a.startsWith('--start-marker='));
if (startMarker) await fs.writeFile(startMarker.slice('--start-marker='.length), `${process.pid}\n`);

function makeServer() {
  const server = new Server({ name: 'gatehouse-test-server', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => call(req.params.name, req.params.arguments ?? {}));
  return server;
}

if (process.argv.includes('--http')) {
  const httpServer = http.createServer(async (req, res) => {
    // Stateless: one server and transport per request.
    const server = makeServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    let body = '';
    req.setEncoding('utf8');
    for await (const chunk of req) body += chunk;
    await transport.handleRequest(req, res, body ? JSON.parse(body) : undefined);
  });
  httpServer.listen(0, '127.0.0.1', () => {
    process.stdout.write(`listening ${httpServer.address().port}\n`);
  });
} else {
  await makeServer().connect(new StdioServerTransport());
}
