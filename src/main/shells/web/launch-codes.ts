import crypto from 'node:crypto';
import { tokensMatch } from './auth';

/** How long a launch link works if no browser opens it. */
const LAUNCH_CODE_TTL_MS = 120_000;

/**
 * One-time codes for the link `gatehouse web --open` hands the system browser. A program's command line is readable
 * by every local user (/proc/PID/cmdline), and the browser keeps the URL it was started with there for as long as
 * it runs, so the session token never goes on a command line: the browser gets `/launch/CODE` instead, which the
 * server answers once, within LAUNCH_CODE_TTL_MS, with a redirect to the page and its token (in the fragment).
 */
export class LaunchCodes {
  private readonly codes = new Map<string, number>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly ttlMs: number = LAUNCH_CODE_TTL_MS,
  ) {}

  issue(): string {
    const code = crypto.randomBytes(24).toString('base64url');
    this.codes.set(code, this.now() + this.ttlMs);
    return code;
  }

  /** True once for an issued code that has not expired; after that, and for any other string, false. */
  redeem(given: string): boolean {
    const now = this.now();
    let valid = false;
    for (const [code, expires] of this.codes) {
      if (expires <= now) this.codes.delete(code);
      else if (tokensMatch(code, given)) {
        this.codes.delete(code);
        valid = true;
      }
    }
    return valid;
  }
}
