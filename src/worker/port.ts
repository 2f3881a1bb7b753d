import type { PortMessage } from '../shared/worker-protocol';

/** The worker's end of the port to main: Electron's parentPort in a utility process, else Node's IPC channel. */
export interface MainPort {
  readonly runtime: 'node' | 'electron';
  send(message: PortMessage): void;
  onMessage(listener: (message: unknown) => void): void;
  /**
   * Main is gone (its process died without stopping this one): nothing is left to serve. Only a Node child learns it
   * (its IPC channel closes); Electron ends its utility processes with the app.
   */
  onGone(listener: () => void): void;
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
      onGone: () => undefined,
    };
  }
  const send = process.send?.bind(process);
  if (!send) throw new Error('the worker must be started by Gatehouse (no IPC channel to the main process)');
  return {
    runtime: 'node',
    send: (message) => {
      if (process.connected) send(message);
    },
    onMessage: (listener) => process.on('message', listener),
    onGone: (listener) => process.on('disconnect', listener),
  };
}
