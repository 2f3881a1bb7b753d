import { ALL_EXTENSIONS, type TrustExtensions } from '../../shared/trust-contract';

/** Trust, and which of the project's extensions (rules, hooks, instructions) it enables. */
export interface TrustAnswer {
  trusted: boolean;
  extensions: TrustExtensions;
}

/**
 * What the permission engine needs to know about trust: is this project trusted right now? The real answer comes
 * from the TrustStore (src/main/trust); the engine asks on every call, so a revocation takes effect on the next one.
 */
export interface TrustOracle {
  isTrusted(projectRoot: string): boolean;
  /** The same answer without blocking (the TrustStore reads its file with fs.promises); used by `decide`. */
  isTrustedAsync?(projectRoot: string): Promise<boolean>;
  /** Trust is specific: the answer with the extensions the decision enables (absent: every extension). */
  answer?(projectRoot: string): TrustAnswer;
  answerAsync?(projectRoot: string): Promise<TrustAnswer>;
}

export function trustAnswer(oracle: TrustOracle, projectRoot: string): TrustAnswer {
  if (oracle.answer) return oracle.answer(projectRoot);
  return { trusted: oracle.isTrusted(projectRoot), extensions: ALL_EXTENSIONS };
}

export async function trustAnswerAsync(oracle: TrustOracle, projectRoot: string): Promise<TrustAnswer> {
  if (oracle.answerAsync) return oracle.answerAsync(projectRoot);
  if (oracle.answer) return oracle.answer(projectRoot);
  const trusted = oracle.isTrustedAsync ? await oracle.isTrustedAsync(projectRoot) : oracle.isTrusted(projectRoot);
  return { trusted, extensions: ALL_EXTENSIONS };
}

/** A fixed answer, for tests and for shells that decided trust some other way. */
export function fixedTrust(trusted: boolean): TrustOracle {
  return { isTrusted: () => trusted };
}

/**
 * Whether a project is trusted, asked without blocking where the oracle can (the TrustStore reads its file with
 * fs.promises); an oracle that fails means untrusted (fail safe: the project's settings then add nothing).
 */
export async function trustedOrFalse(trust: TrustOracle, projectRoot: string): Promise<boolean> {
  try {
    return await (trust.isTrustedAsync ? trust.isTrustedAsync(projectRoot) : trust.isTrusted(projectRoot));
  } catch {
    return false;
  }
}

/** `trust`, answering "untrusted" instead of throwing (both ways of asking). */
export function failSafe(trust: TrustOracle): TrustOracle {
  return {
    isTrusted(projectRoot) {
      try {
        return trust.isTrusted(projectRoot);
      } catch {
        return false;
      }
    },
    isTrustedAsync: (projectRoot) => trustedOrFalse(trust, projectRoot),
    answer(projectRoot) {
      try {
        return trustAnswer(trust, projectRoot);
      } catch {
        return { trusted: false, extensions: ALL_EXTENSIONS };
      }
    },
    answerAsync: (projectRoot) =>
      trustAnswerAsync(trust, projectRoot).catch(() => ({ trusted: false, extensions: ALL_EXTENSIONS })),
  };
}
