/**
 * Streamable HTTP to an MCP server's URL, and nowhere else: every request the transport makes must stay on the
 * entry's origin (a redirect elsewhere fails the request rather than being followed).
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpHttpEntry } from '../../shared/mcp-contract';

export async function httpTransport(entry: McpHttpEntry): Promise<Transport> {
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const url = new URL(entry.url);
  const origin = url.origin;
  const onlyThisOrigin = async (input: string | URL, init?: RequestInit): Promise<Response> => {
    const target = new URL(typeof input === 'string' ? input : input.href);
    if (target.origin !== origin)
      throw new Error(`refused a request to ${target.origin}: this server may only be reached at ${origin}`);
    return fetch(target, { ...init, redirect: 'manual' }).then((res) => {
      if (res.status >= 300 && res.status < 400)
        throw new Error(
          `the server answered with a redirect (${res.status}) to ${res.headers.get('location') ?? '?'}: not followed`,
        );
      return res;
    });
  };
  return new StreamableHTTPClientTransport(url, {
    fetch: onlyThisOrigin,
    requestInit: { headers: { ...(entry.headers ?? {}) } },
    // The SDK retries a lost SSE stream by itself; a lost server is this client's to restart (with its backoff).
    reconnectionOptions: {
      maxReconnectionDelay: 1_000,
      initialReconnectionDelay: 500,
      reconnectionDelayGrowFactor: 2,
      maxRetries: 0,
    },
  });
}
