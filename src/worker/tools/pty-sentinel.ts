import { randomBytes } from 'node:crypto';

/**
 * Linux drops the tail of a pty's output when its last writer exits before the reader drained it (node-pty gets
 * EIO early). So the command runs under a small wrapper shell that, after the command, prints a random end marker
 * with the exit code and waits for our acknowledgement: once the marker is seen every byte before it has arrived.
 */
// The wrapper's own stderr goes to /dev/null (bash would print "Killed" for a command that died of a signal);
// the command gets the terminal's stderr back through fd 3.
// Arguments: the end marker, then the argv to run (`bash -c COMMAND`, or a sandbox's wrapped argv).
export const WRAPPER_SCRIPT =
  'exec 3>&2 2>/dev/null; m=$1; shift; "$@" </dev/null 2>&3 3>&-; rc=$?; printf \'\\n%s:%d\\n\' "$m" "$rc"; read -r -t 5 _; exit "$rc"';

export function newEndMarker(): string {
  return `__gatehouse_done_${randomBytes(8).toString('hex')}`;
}

/** Filters the stream: passes the command's output on, holds back what could be the start of the marker. */
export class EndMarkerFilter {
  private held = '';
  private readonly needle: string;
  /** The command's exit code, once the marker line has been read in full. */
  exitCode: number | null = null;
  done = false;

  constructor(marker: string) {
    this.needle = `\r\n${marker}:`;
  }

  /** Returns the part of `chunk` that is the command's own output. */
  push(chunk: string): string {
    if (this.exitCode !== null) return '';
    const text = this.held + chunk;
    const at = text.indexOf(this.needle);
    if (at !== -1) {
      const rest = text.slice(at + this.needle.length);
      const m = /^(\d+)\r?\n/.exec(rest);
      if (m !== null) {
        this.exitCode = Number(m[1]);
        this.held = '';
      } else {
        this.held = text.slice(at); // the marker line is not complete yet
      }
      return text.slice(0, at);
    }
    let keep = Math.min(this.needle.length - 1, text.length);
    while (keep > 0 && !this.needle.startsWith(text.slice(text.length - keep))) keep--;
    this.held = text.slice(text.length - keep);
    return text.slice(0, text.length - keep);
  }

  /** What was held back when the stream ended without a complete marker (killed command). */
  flush(): string {
    if (this.exitCode !== null) return '';
    const rest = this.held;
    this.held = '';
    const at = rest.indexOf(this.needle);
    return at === -1 ? rest : rest.slice(0, at);
  }
}
