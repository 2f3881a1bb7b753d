/**
 * One MCP server for one run: connects (stdio: a sandboxed child process; http: Streamable HTTP to its URL only),
 * lists its tools, calls them with a timeout, and when the server dies, fails the calls in flight with a clear
 * error and starts it again with exponential backoff (giving up after a few tries, with the reason as its status).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { z } from 'zod';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ActiveMcpServer, McpServerRunStatus } from '../../shared/mcp-contract';
import { isHttpEntry } from '../../shared/mcp-contract';
import type { ToolResult } from '../tools/types';
import { acceptTools, type McpToolDef, type SkippedTool } from './mcp-tool-list';
import { argumentsProblem, capResult, resultText } from './mcp-result';
import type { WrappedCommand } from '../../sandbox/types';
import type { ChildStdioTransport } from './stdio-transport';
import { httpTransport } from './http-transport';

export interface McpTimings {
  /** Start and `initialize`. */
  connectMs: number;
  /** `tools/list` (all pages). */
  listMs: number;
  /** One `tools/call` when the entry names no `timeout`. */
  callMs: number;
  /** First restart delay; doubled per try up to `maxBackoffMs`. */
  backoffMs: number;
  maxBackoffMs: number;
  /** Restarts in a row before the server is given up on. */
  maxRestarts: number;
}

export const DEFAULT_TIMINGS: McpTimings = {
  connectMs: 30_000,
  listMs: 30_000,
  callMs: 120_000,
  backoffMs: 500,
  maxBackoffMs: 10_000,
  maxRestarts: 5,
};

const MAX_ERRORS = 10;
const MAX_PAGES = 50;

export interface McpConnectionDeps {
  /** The spawn of a stdio server: inside the OS sandbox (throws with the reason when it cannot be). */
  spawnSpec(server: ActiveMcpServer): Promise<WrappedCommand>;
  timings: McpTimings;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export class McpConnection {
  state: McpServerRunStatus['state'] = 'starting';
  tools: McpToolDef[] = [];
  skipped: SkippedTool[] = [];
  readonly errors: string[] = [];
  private client: Client | null = null;
  private stdio: ChildStdioTransport | null = null;
  private restarts = 0;
  private restartTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  /** Settles when the server is up again (or given up on): calls made while it restarts wait for it. */
  private restarting: Promise<void> | null = null;
  /** Why the last process ended, for the calls that were in flight. */
  private lastExit = '';

  constructor(
    readonly server: ActiveMcpServer,
    private readonly deps: McpConnectionDeps,
  ) {}

  get name(): string {
    return this.server.name;
  }

  /** The pid of a stdio server's process (tests check it is gone after the run). */
  get pid(): number | null {
    return this.stdio?.pid ?? null;
  }

  status(): McpServerRunStatus {
    return {
      name: this.name,
      state: this.state,
      tools: this.tools.map((t) => ({ name: t.name, server: t.server, tool: t.tool, readOnlyHint: t.readOnlyHint })),
      skipped: this.skipped,
      errors: [...this.errors],
    };
  }

  /** Connects and lists the tools; a failure is the server's status (`failed`) and error, never a throw. */
  async start(): Promise<void> {
    try {
      await this.connect();
      this.skipped = [];
      const listed = await this.listTools();
      const accepted = acceptTools(this.name, listed);
      this.tools = accepted.tools;
      this.skipped.push(...accepted.skipped);
      for (const s of this.skipped) this.error(s.reason);
      if (!this.stopped) this.state = 'ready';
    } catch (err) {
      if (this.stopped) return;
      this.state = 'failed';
      this.error(`could not start: ${messageOf(err)}${this.stderrNote()}`);
      await this.closeClient();
    }
  }

  async call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult> {
    const tooBig = argumentsProblem(args);
    if (tooBig) return { content: `invalid_input: ${tooBig}`, isError: true };
    if (this.restarting) await this.restarting;
    if (this.state !== 'ready' || !this.client)
      return { content: `MCP server ${this.name} is not available: ${this.lastError()}`, isError: true };
    const client = this.client;
    const timeout = this.server.entry.timeout ?? this.deps.timings.callMs;
    try {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, { timeout, signal });
      return resultText(result as Parameters<typeof resultText>[0]);
    } catch (err) {
      if (signal.aborted) return { content: `cancelled: the call to ${this.name} was cancelled`, isError: true };
      if (this.client !== client || this.state !== 'ready')
        return {
          content: `MCP server ${this.name} ${this.lastExit || 'closed the connection'}; restarting`,
          isError: true,
        };
      if (isHttpEntry(this.server.entry) && !isProtocolError(err)) {
        // The server could not be reached: reconnect (with backoff) for the next call.
        this.onLost(`could not be reached (${messageOf(err)})`);
        return {
          content: `MCP server ${this.name} could not be reached: ${capResult(messageOf(err), 2_000)}; reconnecting`,
          isError: true,
        };
      }
      return { content: `MCP server ${this.name}: ${capResult(messageOf(err), 2_000)}`, isError: true };
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.state = 'stopped';
    if (this.restartTimer) clearTimeout(this.restartTimer);
    await this.closeClient();
  }

  private async connect(): Promise<void> {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const client = new Client({ name: 'gatehouse', version: '1' }, { capabilities: {} });
    let transport: Transport;
    if (isHttpEntry(this.server.entry)) {
      transport = await httpTransport(this.server.entry);
    } else {
      const spec = await this.deps.spawnSpec(this.server);
      if (this.stopped) {
        // The run ended while the sandbox was being set up: nothing may start after stop().
        await spec.cleanup?.();
        throw new Error('the run ended before the server started');
      }
      // Loaded with the first stdio server: the SDK's framing builds its zod schemas as it loads (~0.1 s), which a
      // worker without MCP servers (most runs) never pays at start.
      const { ChildStdioTransport } = await import('./stdio-transport');
      this.stdio = new ChildStdioTransport(spec);
      transport = this.stdio;
    }
    client.onclose = () => {
      if (this.client === client) this.onLost(this.exitWords());
    };
    this.client = client;
    await client.connect(transport, { timeout: this.deps.timings.connectMs });
  }

  private async listTools(): Promise<Parameters<typeof acceptTools>[1]> {
    const client = this.client;
    if (!client) throw new Error('not connected');
    const all: Parameters<typeof acceptTools>[1][number][] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      // Each tool is checked on its own (one malformed tool is left out, not the whole server).
      const res = await client.request({ method: 'tools/list', params: cursor ? { cursor } : {} }, ListPageSchema, {
        timeout: this.deps.timings.listMs,
      });
      for (const raw of res.tools) {
        const tool = ListedToolSchema.safeParse(raw);
        if (tool.success) all.push(tool.data);
        else
          this.skipped.push({
            tool: toolNameOf(raw),
            reason: `a tool of ${this.name} is left out: it is not a valid tool description`,
          });
      }
      cursor = res.nextCursor;
      if (!cursor) break;
    }
    return all;
  }

  private exitWords(): string {
    const exit = this.stdio?.exit;
    if (!exit) return 'closed the connection';
    return exit.signal ? `exited (signal ${exit.signal})` : `exited (code ${exit.code})`;
  }

  /** The process died or the connection was lost: fail what is in flight, start again with backoff. */
  private onLost(why: string): void {
    if (this.stopped || this.restarting || this.state === 'starting') return;
    this.lastExit = why;
    this.error(`${why}${this.stderrNote()}`);
    this.client = null;
    if (this.restarts >= this.deps.timings.maxRestarts) {
      this.state = 'failed';
      this.error(`given up after ${this.restarts} restarts`);
      return;
    }
    this.state = 'restarting';
    const delay = Math.min(this.deps.timings.backoffMs * 2 ** this.restarts, this.deps.timings.maxBackoffMs);
    this.restarts++;
    this.restarting = new Promise<void>((resolve) => {
      this.restartTimer = setTimeout(() => {
        this.restartTimer = null;
        void this.restart().finally(() => {
          this.restarting = null;
          resolve();
        });
      }, delay);
    });
  }

  private async restart(): Promise<void> {
    if (this.stopped) return;
    this.stdio = null;
    try {
      await this.connect();
      // The model was shown the tools of the first listing: keep them; a tool gone now fails when called.
      this.state = 'ready';
    } catch (err) {
      const failed = this.client;
      this.client = null;
      await failed?.close().catch(() => undefined);
      this.restarting = null;
      this.onLost(`could not restart: ${messageOf(err)}`);
      if (this.restarting) await this.restarting;
    }
  }

  private async closeClient(): Promise<void> {
    const client = this.client;
    this.client = null;
    await client?.close().catch(() => undefined);
    await this.stdio?.close().catch(() => undefined);
  }

  private stderrNote(): string {
    const tail = this.stdio?.stderr.trim();
    return tail ? `; its last error output: ${capResult(tail.slice(-500), 600)}` : '';
  }

  private lastError(): string {
    return this.errors[this.errors.length - 1] ?? this.state;
  }

  private error(message: string): void {
    this.errors.push(message);
    if (this.errors.length > MAX_ERRORS) this.errors.splice(0, this.errors.length - MAX_ERRORS);
  }
}

const ListPageSchema = z.looseObject({ tools: z.array(z.unknown()).max(10_000), nextCursor: z.string().optional() });
const ListedToolSchema = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  inputSchema: z.unknown(),
  annotations: z.looseObject({ readOnlyHint: z.boolean().optional() }).optional(),
});

function toolNameOf(raw: unknown): string {
  const name = typeof raw === 'object' && raw !== null ? (raw as { name?: unknown }).name : undefined;
  return typeof name === 'string' ? name.slice(0, 200) : '(unnamed)';
}

/** An error the server answered with (JSON-RPC), as opposed to a failure to reach it. */
function isProtocolError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && typeof (err as { code?: unknown }).code === 'number';
}
