/**
 * What the permission engine needs to know about trust: is this project trusted right now? The real answer comes
 * from the TrustStore (src/main/trust); the engine asks on every call, so a revocation takes effect on the next one.
 */
export interface TrustOracle {
  isTrusted(projectRoot: string): boolean;
  /** The same answer without blocking (the TrustStore reads its file with fs.promises); used by `decideAsync`. */
  isTrustedAsync?(projectRoot: string): Promise<boolean>;
}

/** A fixed answer, for tests and for shells that decided trust some other way. */
export function fixedTrust(trusted: boolean): TrustOracle {
  return { isTrusted: () => trusted };
}
