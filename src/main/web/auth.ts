import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';

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

/** The cookie's name carries the port: two servers on 127.0.0.1 must not overwrite each other's cookie. */
export function cookieName(port: number): string {
  return `gh_token_${port}`;
}

export function readCookie(req: IncomingMessage, name: string): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

export type TokenSource = 'query' | 'cookie' | null;

/** Which credential of the request carries the right token, if any (the query wins: it may refresh the cookie). */
export function authenticate(req: IncomingMessage, url: URL, token: string, port: number): TokenSource {
  if (tokensMatch(token, url.searchParams.get('token'))) return 'query';
  if (tokensMatch(token, readCookie(req, cookieName(port)))) return 'cookie';
  return null;
}

export function sessionCookie(token: string, port: number): string {
  return `${cookieName(port)}=${token}; HttpOnly; SameSite=Strict; Path=/`;
}

/** The hosts this server answers to: anything else is a DNS-rebinding attempt or a confused client. */
export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

export function allowedOrigins(port: number): string[] {
  return allowedHosts(port).map((h) => `http://${h}`);
}
