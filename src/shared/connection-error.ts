/**
 * Why a connection failed, in words a person can act on. fetch and the SDKs built on it wrap the real reason
 * ("Connection error." around "fetch failed" around "unable to verify the first certificate"): the innermost cause
 * and its code are what says it, and a certificate nobody trusts gets what to do about it.
 */

/** OpenSSL's answers for "signed by an authority this process does not trust" (as Node names them). */
const UNTRUSTED_CODES = new Set([
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'CERT_UNTRUSTED',
]);

const UNTRUSTED_CERTIFICATE_HINT =
  "the server's certificate is not signed by an authority Gatehouse trusts; behind a proxy that inspects TLS, " +
  "set network.caFile in your settings to the proxy's root certificate (a PEM file)";

function innermost(err: unknown): unknown {
  let inner: unknown = err;
  for (let depth = 0; depth < 10; depth++) {
    const next = (inner as { cause?: unknown } | null)?.cause;
    if (next === undefined || next === null || next === inner) break;
    inner = next;
  }
  return inner;
}

/** Whether a connection failed because the server's certificate chains to no trusted authority (no retry mends it). */
export function isUntrustedCertificate(err: unknown): boolean {
  const code = (innermost(err) as { code?: unknown } | null)?.code;
  return typeof code === 'string' && UNTRUSTED_CODES.has(code);
}

/** The innermost cause's message and code, with the hint for an untrusted certificate; null when there is no cause. */
export function connectionCause(err: unknown): string | null {
  const inner = innermost(err);
  if (inner === err) return null;
  const message = inner instanceof Error ? inner.message : String(inner);
  const code = (inner as { code?: unknown } | null)?.code;
  const coded = typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message;
  return typeof code === 'string' && UNTRUSTED_CODES.has(code) ? `${coded}: ${UNTRUSTED_CERTIFICATE_HINT}` : coded;
}
