import { ALL_EXTENSIONS, type TrustExtensions } from '../../../shared/trust-contract';

/** Trust, and which of the project's extensions (rules, hooks, instructions) it enables. */
export interface TrustAnswer {
  trusted: boolean;
  extensions: TrustExtensions;
}

/**
 * What the permission engine needs to know about trust: is this project trusted right now? The real answer comes
 * from the TrustStore (src/main/core/trust), which reads its file without blocking; the engine asks on every call, so a
 * revocation takes effect on the next one.
 */
export interface TrustOracle {
  isTrusted(projectRoot: string): Promise<boolean>;
  /** Trust is specific: the answer with the extensions the decision enables (absent: every extension). */
  answer?(projectRoot: string): Promise<TrustAnswer>;
}

export async function trustAnswer(oracle: TrustOracle, projectRoot: string): Promise<TrustAnswer> {
  if (oracle.answer) return oracle.answer(projectRoot);
  return { trusted: await oracle.isTrusted(projectRoot), extensions: ALL_EXTENSIONS };
}

/** A fixed answer, for tests and for shells that decided trust some other way. */
export function fixedTrust(trusted: boolean): TrustOracle {
  return { isTrusted: () => Promise.resolve(trusted) };
}

/** Whether a project is trusted; an oracle that fails means untrusted (fail safe: the project's settings then add nothing). */
export async function trustedOrFalse(trust: TrustOracle, projectRoot: string): Promise<boolean> {
  try {
    return await trust.isTrusted(projectRoot);
  } catch {
    return false;
  }
}

/** `trust`, answering "untrusted" instead of failing. */
export function failSafe(trust: TrustOracle): TrustOracle {
  return {
    isTrusted: (projectRoot) => trustedOrFalse(trust, projectRoot),
    answer: async (projectRoot) => {
      try {
        return await trustAnswer(trust, projectRoot);
      } catch {
        return { trusted: false, extensions: ALL_EXTENSIONS };
      }
    },
  };
}
