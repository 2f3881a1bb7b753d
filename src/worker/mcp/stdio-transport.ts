/**
 * The stdio transport for one MCP server process: the SDK's framing (ReadBuffer, serializeMessage) over a child we
 * spawn ourselves, in its own process group (on Windows: its process tree), so the whole server (and anything it
 * started) is stopped with it and its exit code and the tail of its stderr are known when it dies.
 */
import { spawn as nodeSpawn, type ChildProcess } from 'node:child_process';
import crossSpawn from 'cross-spawn';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { WrappedCommand } from '../../sandbox/types';
import { treeEnderFor } from '../tools/process-group';

/**
 * Windows: the program as the SDK's own stdio client starts it (cross-spawn), so `npx` finds `npx.cmd` through PATHEXT
 * and a `.cmd` runs through cmd.exe with its arguments escaped for it (Node refuses to start a `.cmd` directly). No
 * shell reads the entry's arguments, as on Linux and macOS.
 */
const spawn = process.platform === 'win32' ? crossSpawn : nodeSpawn;

const STDERR_TAIL_CHARS = 4_000;
/** Largest single message read from a server (a bigger one is an error, and the server is stopped). */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export class ChildStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private child: ChildProcess | null = null;
  private readonly buffer = new ReadBuffer({ maxBufferSize: MAX_MESSAGE_BYTES });
  private stderrTail = '';
  private closing = false;
  /** How the process ended, once it did. */
  exit: ProcessExit | null = null;
  private readonly exited: Promise<void>;
  private markExited!: () => void;

  constructor(private readonly spec: WrappedCommand) {
    this.exited = new Promise((resolve) => (this.markExited = resolve));
  }

  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** The last few thousand characters the server wrote to stderr. */
  get stderr(): string {
    return this.stderrTail;
  }

  /** True when we did not ask it to stop. */
  get crashed(): boolean {
    return this.exit !== null && !this.closing;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.spec.file, this.spec.args, {
        env: this.spec.env,
        cwd: this.spec.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        // its own process group on Linux and macOS; on Windows that would give it a console window of its own
        detached: process.platform !== 'win32',
        windowsHide: true,
      });
      this.child = child;
      child.once('error', (err) => {
        reject(err);
        this.onerror?.(err);
      });
      child.once('spawn', () => resolve());
      child.once('close', (code, signal) => {
        this.exit = { code, signal };
        this.markExited();
        void this.spec.cleanup?.().catch(() => undefined);
        this.onclose?.();
      });
      child.stdout?.on('data', (chunk: Buffer) => {
        try {
          this.buffer.append(chunk);
          for (let m = this.buffer.readMessage(); m !== null; m = this.buffer.readMessage()) this.onmessage?.(m);
        } catch (err) {
          this.onerror?.(err instanceof Error ? err : new Error(String(err)));
          void this.close();
        }
      });
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (text: string) => {
        this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL_CHARS);
      });
      child.stdin?.on('error', (err) => this.onerror?.(err));
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || this.exit !== null) {
        reject(new Error('the server process is not running'));
        return;
      }
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', () => resolve());
    });
  }

  /**
   * Ends stdin, then the process group: SIGTERM, and SIGKILL after a grace period (Windows: taskkill of the tree).
   * Resolves once it exited.
   */
  async close(): Promise<void> {
    this.closing = true;
    const child = this.child;
    if (!child || this.exit !== null) return;
    child.stdin?.end();
    if (child.pid !== undefined && (await treeEnderFor()(child.pid, 2_000)) !== null) child.kill();
    await this.exited;
  }
}
