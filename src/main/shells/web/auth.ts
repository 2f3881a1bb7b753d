import crypto from 'node:crypto';

/** A fresh session token: 32 random bytes, base64url (43 characters). */
export function newSessionToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/** Constant-time comparison (both sides hashed first, so lengths never leak either). */
export function tokensMatch(expected: string, given: string | null | undefined): boolean {
  if (typeof given !== 'string' || given.length === 0 || given.length > 512) return false;
  const a = crypto.createHash('sha256').update(expected).digest();
  const b = crypto.createHash('sha256').update(given).digest();
  return crypto.timingSafeEqual(a, b);
}

/**
 * The one URL a person opens. The token rides in the fragment, which browsers never send to any server (not to
 * this one, not in a Referer): the page reads it, keeps it in its own origin's session storage and sends it as the
 * socket's first message. No cookie carries it, so no other server on 127.0.0.1 ever receives it.
 */
export function pageUrl(port: number, token: string): string {
  return `http://127.0.0.1:${port}/#token=${token}`;
}

/** The hosts this server answers to: anything else is a DNS-rebinding attempt or a confused client. */
export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

export function allowedOrigins(port: number): string[] {
  return allowedHosts(port).map((h) => `http://${h}`);
}
