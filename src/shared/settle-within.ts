/**
 * Runs `work` for at most `ms`, then resolves: work that fails or hangs never holds up whoever must go on (an
 * exiting worker's cleanup, a closing session waiting for its cancelled prompt).
 */
export function settleWithin(work: () => Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    Promise.resolve()
      .then(work)
      .catch(() => undefined),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]).then(() => clearTimeout(timer));
}
