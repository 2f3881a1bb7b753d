import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import type { ApiEvent } from '../../src/shared/api';
import { SOCKET_UNAUTHORIZED } from '../../src/shared/api';
import { GatehouseError } from '../../src/shared/errors';
import { ConnectionLostError } from '../../src/renderer/src/api/errors';
import { createSocketClient, socketUrlFor } from '../../src/renderer/src/api/socket-client';
import type { ApiClient, ConnectionState } from '../../src/renderer/src/api/types';
import type { SocketLike } from '../../src/renderer/src/api/socket-client';
import { isProcessAlive, makeTempDir, removeTempDir, startWeb } from '../e2e/support/start-web';

interface Req {
  id: number;
  channel: string;
  payload: unknown;
}

/**
 * A scripted server on a real socket: the test decides what to answer, and when. It accepts the first frame of a
 * socket when it carries TOKEN (answering `authenticated`) and closes the socket with 4401 otherwise.
 */
async function scriptedServer(): Promise<{
  url: string;
  requests: Req[];
  tokens: unknown[];
  sockets: WebSocket[];
  wss: WebSocketServer;
  nextRequest(): Promise<Req>;
}> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  const requests: Req[] = [];
  const tokens: unknown[] = [];
  const sockets: WebSocket[] = [];
  const waiting: ((r: Req) => void)[] = [];
  wss.on('connection', (ws) => {
    sockets.push(ws);
    let authed = false;
    ws.on('message', (data) => {
      if (!authed) {
        const first = JSON.parse(String(data)) as { kind?: string; token?: unknown };
        tokens.push(first.token);
        if (first.kind !== 'auth' || first.token !== TOKEN)
          return ws.close(SOCKET_UNAUTHORIZED, 'unauthorized: wrong token');
        authed = true;
        return ws.send(JSON.stringify({ kind: 'authenticated' }));
      }
      const req = JSON.parse(String(data)) as Req;
      requests.push(req);
      waiting.shift()?.(req);
    });
  });
  let taken = 0;
  return {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/api`,
    requests,
    tokens,
    sockets,
    wss,
    nextRequest: () =>
      taken < requests.length
        ? Promise.resolve(requests[taken++] as Req)
        : new Promise((r) => waiting.push((req) => (taken++, r(req)))),
  };
}

const TOKEN = 'the-page-token';

const nodeSocket = (origin?: string) => (url: string) =>
  new WebSocket(url, origin ? { origin } : {}) as unknown as SocketLike;

function nextState(client: ApiClient, status: ConnectionState['status']): Promise<ConnectionState> {
  return new Promise((resolve) => {
    if (client.connection().status === status) return resolve(client.connection());
    const off = client.onConnection((s) => {
      if (s.status === status) {
        off();
        resolve(s);
      }
    });
  });
}

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('the renderer socket client (a real socket, a scripted server)', () => {
  it('queues calls made before the socket opens, correlates answers by id whatever their order, and checks them', async () => {
    const server = await scriptedServer();
    cleanups.push(() => server.wss.close());
    const client = createSocketClient(server.url, TOKEN, { createSocket: nodeSocket() });
    cleanups.push(() => client.close());
    const first = client.api.listRecentProjects({});
    const second = client.api.openProject({ path: '/p' });
    const [r1, r2] = [await server.nextRequest(), await server.nextRequest()];
    expect(r1).toMatchObject({ channel: 'listRecentProjects', payload: {} });
    expect(r2).toMatchObject({ channel: 'openProject', payload: { path: '/p' } });
    const ws = server.sockets[0];
    ws?.send(JSON.stringify({ kind: 'response', id: r2.id, ok: true, result: { path: '/real/p' } }));
    ws?.send(JSON.stringify({ kind: 'response', id: r1.id, ok: true, result: { paths: ['/a', '/b'] } }));
    expect(await second).toEqual({ path: '/real/p' });
    expect(await first).toEqual({ paths: ['/a', '/b'] });

    const typed = client.api.pingWorker({});
    const r3 = await server.nextRequest();
    ws?.send(JSON.stringify({ kind: 'error', id: r3.id, error: { code: 'WORKER_UNAVAILABLE', message: 'down' } }));
    await expect(typed).rejects.toMatchObject({ code: 'WORKER_UNAVAILABLE', message: 'down' });

    const malformed = client.api.listRecentProjects({});
    const r4 = await server.nextRequest();
    ws?.send('garbage');
    ws?.send(JSON.stringify({ kind: 'response', id: r4.id, ok: true, result: { paths: 'not a list' } }));
    const err = await malformed.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatehouseError);
    expect(err).toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('delivers pushed events to every listener until it unsubscribes', async () => {
    const server = await scriptedServer();
    cleanups.push(() => server.wss.close());
    const client = createSocketClient(server.url, TOKEN, { createSocket: nodeSocket() });
    cleanups.push(() => client.close());
    await nextState(client, 'open');
    const seen: ApiEvent[] = [];
    const off = client.api.onEvent((e) => seen.push(e));
    const event: ApiEvent = { type: 'projectChanged', path: '/x' };
    server.sockets[0]?.send(JSON.stringify({ kind: 'event', event }));
    server.sockets[0]?.send(JSON.stringify({ kind: 'event', event: { type: 'nonsense' } }));
    await expect.poll(() => seen.length).toBe(1);
    off();
    server.sockets[0]?.send(JSON.stringify({ kind: 'event', event }));
    const check = client.api.listRecentProjects({});
    const req = await server.nextRequest();
    server.sockets[0]?.send(JSON.stringify({ kind: 'response', id: req.id, ok: true, result: { paths: [] } }));
    await check;
    expect(seen).toEqual([event]);
  });

  it('fails in-flight calls with a typed error when the socket drops, then reconnects with backoff', async () => {
    const server = await scriptedServer();
    cleanups.push(() => server.wss.close());
    const states: ConnectionState[] = [];
    const client = createSocketClient(server.url, TOKEN, { createSocket: nodeSocket(), initialBackoffMs: 50 });
    cleanups.push(() => client.close());
    client.onConnection((s) => states.push(s));
    const hanging = client.api.pingWorker({});
    await server.nextRequest();
    server.sockets[0]?.terminate();
    const err = await hanging.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectionLostError);
    expect(err).toMatchObject({ code: 'CANCELLED' });
    await nextState(client, 'open');
    expect(states.map((s) => s.status)).toEqual(['open', 'closed', 'connecting', 'open']);
    expect(states[1]).toMatchObject({ status: 'closed', retryInMs: 50 });

    const after = client.api.listRecentProjects({});
    const req = await server.nextRequest();
    server.sockets[1]?.send(JSON.stringify({ kind: 'response', id: req.id, ok: true, result: { paths: ['/again'] } }));
    expect(await after).toEqual({ paths: ['/again'] });
  });

  it('times out an unanswered call and rejects pending calls when closed', async () => {
    const server = await scriptedServer();
    cleanups.push(() => server.wss.close());
    const client = createSocketClient(server.url, TOKEN, { createSocket: nodeSocket(), requestTimeoutMs: 200 });
    await expect(client.api.getAppInfo({})).rejects.toMatchObject({ code: 'TIMEOUT' });
    const pending = client.api.getAppInfo({});
    client.close();
    await expect(pending).rejects.toBeInstanceOf(ConnectionLostError);
    await expect(client.api.getAppInfo({})).rejects.toBeInstanceOf(ConnectionLostError);
  });

  it('builds the socket URL from the page location, with no credential in it', () => {
    expect(socketUrlFor({ protocol: 'http:', host: '127.0.0.1:4317' })).toBe('ws://127.0.0.1:4317/api');
    expect(socketUrlFor({ protocol: 'https:', host: 'h:1' })).toBe('wss://h:1/api');
  });

  it('sends the token as the first frame of every socket, and nothing before the server accepts it', async () => {
    const server = await scriptedServer();
    cleanups.push(() => server.wss.close());
    const client = createSocketClient(server.url, TOKEN, { createSocket: nodeSocket(), initialBackoffMs: 50 });
    cleanups.push(() => client.close());
    const early = client.api.listRecentProjects({});
    const req = await server.nextRequest();
    expect(server.tokens).toEqual([TOKEN]);
    server.sockets[0]?.send(JSON.stringify({ kind: 'response', id: req.id, ok: true, result: { paths: [] } }));
    await early;
    server.sockets[0]?.terminate();
    await nextState(client, 'closed');
    await nextState(client, 'open');
    expect(server.tokens).toEqual([TOKEN, TOKEN]);
  });

  it('a refused token ends in "unauthorized" with no retry; without a token it never connects', async () => {
    const server = await scriptedServer();
    cleanups.push(() => server.wss.close());
    const states: ConnectionState[] = [];
    const client = createSocketClient(server.url, 'a-wrong-token', {
      createSocket: nodeSocket(),
      initialBackoffMs: 10,
    });
    cleanups.push(() => client.close());
    client.onConnection((s) => states.push(s));
    const call = client.api.getAppInfo({});
    expect(await nextState(client, 'unauthorized')).toEqual({
      status: 'unauthorized',
      reason: 'unauthorized: wrong token: open the URL that `gatehouse web` printed',
    });
    await expect(call).rejects.toBeInstanceOf(ConnectionLostError);
    await expect(client.api.getAppInfo({})).rejects.toThrow(/open the URL/);
    expect(server.requests).toEqual([]);
    expect(states.map((s) => s.status)).toEqual(['unauthorized']);
    expect(server.sockets).toHaveLength(1);

    const none = createSocketClient(server.url, null, { createSocket: nodeSocket() });
    cleanups.push(() => none.close());
    expect(none.connection()).toMatchObject({
      status: 'unauthorized',
      reason: expect.stringMatching(/no access token/),
    });
    await expect(none.api.getAppInfo({})).rejects.toBeInstanceOf(ConnectionLostError);
    expect(server.sockets).toHaveLength(1);
  });
});

describe('the renderer socket client against the real `gatehouse web`', () => {
  it('calls the live worker through the typed API', async () => {
    const project = makeTempDir('gh-client-project-');
    const web = await startWeb({ project });
    cleanups.push(() => removeTempDir(project));
    cleanups.push(() => web.stop());
    const client = createSocketClient(socketUrlFor({ protocol: 'http:', host: `127.0.0.1:${web.port}` }), web.token, {
      createSocket: nodeSocket(web.origin),
    });
    cleanups.push(() => client.close());
    const info = await client.api.getAppInfo({});
    expect(info).toMatchObject({ shell: 'browser', project });
    const worker = await client.api.pingWorker({});
    expect(worker.pid).toBe(info.worker.info?.pid);
    expect(worker.pid).not.toBe(web.proc.pid);
    expect(isProcessAlive(worker.pid)).toBe(true);
    await expect(client.api.openProject({ path: `${project}/nope` })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
