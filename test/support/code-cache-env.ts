/**
 * The run's shared folders (made by test/support/global-setup.ts), for a test that builds a `gatehouse` process's
 * environment from scratch: the cache folder for the CLI's compiled code (the process reads the code earlier
 * processes compiled, as a user's processes do, instead of compiling its bundle again), and the runtime folder where
 * the decision helpers of the run live, with their short idle time (none outlives the run). Empty outside a Vitest
 * run with that setup.
 */
export function codeCacheEnv(): {
  XDG_CACHE_HOME?: string;
  XDG_RUNTIME_DIR?: string;
  GATEHOUSE_DECISION_HELPER_IDLE_MS?: string;
} {
  const cache = process.env.GATEHOUSE_TEST_CODE_CACHE;
  const runtime = process.env.GATEHOUSE_TEST_RUNTIME_DIR;
  return {
    ...(cache ? { XDG_CACHE_HOME: cache } : {}),
    ...(runtime
      ? { XDG_RUNTIME_DIR: runtime, GATEHOUSE_DECISION_HELPER_IDLE_MS: process.env.GATEHOUSE_DECISION_HELPER_IDLE_MS }
      : {}),
  };
}
