/**
 * stdout/stderr whose reader went away (`gatehouse rules list | head -1`): the EPIPE is not a crash with a stack
 * trace. Later writes are dropped, and `onClosed` runs once (the CLI stops a running agent then: nobody reads what
 * it would print, and nobody can answer it).
 */
export interface QuietStream {
  write(text: string): void;
  readonly closed: boolean;
}

export function quietOnClosedPipe(stream: NodeJS.WriteStream, onClosed: () => void = () => {}): QuietStream {
  let closed = false;
  stream.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
    if (closed) return;
    closed = true;
    onClosed();
  });
  return {
    write(text: string): void {
      if (!closed) stream.write(text);
    },
    get closed(): boolean {
      return closed;
    },
  };
}
