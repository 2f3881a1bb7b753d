import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import type { UtilityProcessLike } from '../../../../src/main/shells/electron/utility-channel';

/**
 * A real child process dressed as Electron's UtilityProcess: pid undefined until `spawn` and after `exit`,
 * `exit` with a code only, `postMessage` instead of `send`, `kill()` = SIGTERM.
 */
export class NodeAsUtilityProcess extends EventEmitter implements UtilityProcessLike {
  private readonly child: ChildProcess;
  private spawned = false;
  private gone = false;
  constructor(entry: string, env: Record<string, string>) {
    super();
    this.child = fork(entry, [], { env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'], serialization: 'json' });
    this.child.on('spawn', () => {
      this.spawned = true;
      this.emit('spawn');
    });
    this.child.on('message', (m) => this.emit('message', m));
    this.child.on('exit', (code, signal) => {
      this.gone = true;
      this.emit('exit', code ?? (signal === 'SIGKILL' ? 137 : 143));
    });
    this.child.on('error', () => undefined);
  }
  get pid(): number | undefined {
    return this.spawned && !this.gone ? this.child.pid : undefined;
  }
  get stdout() {
    return this.child.stdout;
  }
  get stderr() {
    return this.child.stderr;
  }
  postMessage(message: unknown): void {
    if (!this.child.connected) throw new Error('process gone');
    this.child.send(message as object);
  }
  kill(): boolean {
    return this.child.kill('SIGTERM');
  }
}
