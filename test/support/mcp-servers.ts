/** Test MCP servers: the SDK-built server of mcp-test-server.mjs (stdio entry, or a real HTTP process). */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { McpHttpEntry, McpStdioEntry } from '../../src/shared/mcp-contract';
import { MCP_BUNDLE_ENV } from './mcp-bundle';

/** Bundled by the run's global setup where the sandbox can see it (mcp-bundle.ts); the source file otherwise. */
const bundled = process.env[MCP_BUNDLE_ENV];
export const TEST_SERVER = bundled
  ? path.join(bundled, 'mcp-test-server.mjs')
  : path.join(path.dirname(fileURLToPath(import.meta.url)), 'mcp-test-server.mjs');
/** The official server-everything from npm, bundled the same way (null: run it from node_modules). */
export const EVERYTHING_SERVER = bundled ? path.join(bundled, 'server-everything.mjs') : null;

export function stdioEntry(extra: Partial<McpStdioEntry> = {}): McpStdioEntry {
  return { command: process.execPath, args: [TEST_SERVER], ...extra };
}

/** The test server over Streamable HTTP, as a real process; resolves once it listens. */
export async function startHttpServer(): Promise<{
  entry: McpHttpEntry;
  url: string;
  stop(): void;
  child: ChildProcess;
}> {
  const child = spawn(process.execPath, [TEST_SERVER, '--http'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      out += chunk;
      const m = /listening (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`the test MCP server exited (${code}) before listening`)));
  });
  const url = `http://127.0.0.1:${port}/mcp`;
  return { entry: { type: 'http', url }, url, child, stop: () => child.kill('SIGKILL') };
}
