import crypto from 'node:crypto';
import fs from 'node:fs';

/**
 * The decision helper's proof that a client is this person's own process. The helper runs commands, and the hooks
 * of whatever settings their environment names, as the person and outside any sandbox, so its socket is a door: the
 * command sandbox hides its folder (src/sandbox/socket-doors.ts), and, in case a path still leaks (a folder
 * the sandbox could not mask, a path handed to a sandboxed process), the helper runs only requests that carry a
 * secret it made when it started: 32 random bytes, written 0600 in its 0700 folder, where no sandboxed process and
 * no other user can read it. A request without it, or with another, is refused before it is queued; the client that
 * cannot read the secret runs the command itself, as it does on any failure. Loaded by the helper only (node:crypto
 * costs a client nothing: it just reads the file, see readHelperSecret).
 */

const SECRET_BYTES = 32;

/** Writes a new secret to `file` (0600, replacing any older one at once); returns it as clients send it (hex). */
export function writeHelperSecret(file: string): string {
  const secret = crypto.randomBytes(SECRET_BYTES).toString('hex');
  const temp = `${file}.${process.pid}.tmp`;
  fs.rmSync(temp, { force: true });
  fs.writeFileSync(temp, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  try {
    fs.renameSync(temp, file);
  } catch (err) {
    fs.rmSync(temp, { force: true });
    throw err;
  }
  return secret;
}

/**
 * Whether `received` is `expected`, compared in constant time (crypto.timingSafeEqual): how long a wrong guess takes
 * tells nothing about how much of it was right. Anything but a string of the same length is simply wrong, and so is
 * everything while the helper has no secret yet.
 */
export function secretMatches(expected: string, received: unknown): boolean {
  if (typeof received !== 'string') return false;
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(received, 'utf8');
  return a.length > 0 && a.length === b.length && crypto.timingSafeEqual(a, b);
}

/** The secret a parsed first frame carries, if any (checked before the frame's shape: an unknown peer learns nothing). */
export function secretOf(frame: unknown): unknown {
  return typeof frame === 'object' && frame !== null ? (frame as { secret?: unknown }).secret : undefined;
}
