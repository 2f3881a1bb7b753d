/**
 * The run's shared cache folder for the CLI's compiled code (made by test/support/global-setup.ts), for a test that
 * builds a `gatehouse` process's environment from scratch: the process then reads the code earlier processes compiled,
 * as a user's processes do, instead of compiling its bundle again. Empty outside a Vitest run with that setup.
 */
export function codeCacheEnv(): { XDG_CACHE_HOME?: string } {
  const dir = process.env.GATEHOUSE_TEST_CODE_CACHE;
  return dir ? { XDG_CACHE_HOME: dir } : {};
}
