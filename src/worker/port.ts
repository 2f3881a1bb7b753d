import type { PortMessage } from '../shared/worker-protocol';

/** The worker's end of the port to main: Electron's parentPort in a utility process, else Node's IPC channel. */
export interface MainPort {
  readonly runtime: 'node' | 'electron';
  send(message: PortMessage): void;
  onMessage(listener: (message: unknown) => void): void;
}

interface ParentPortLike {
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}

export function connectToMain(): MainPort {
  const parentPort = (process as unknown as { parentPort?: ParentPortLike }).parentPort;
  if (parentPort) {
    return {
      runtime: 'electron',
      send: (message) => parentPort.postMessage(message),
      onMessage: (listener) => parentPort.on('message', (event) => listener(event.data)),
    };
  }
  const send = process.send?.bind(process);
  if (!send) throw new Error('the worker must be started by Gatehouse (no IPC channel to the main process)');
  // The parent is gone: nothing left to serve.
  process.on('disconnect', () => process.exit(0));
  return {
    runtime: 'node',
    send: (message) => {
      if (process.connected) send(message);
    },
    onMessage: (listener) => process.on('message', listener),
  };
}
