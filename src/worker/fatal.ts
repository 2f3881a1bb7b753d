import { settleWithin } from '../shared/settle-within';

/** The worker's exit code after an uncaught exception or unhandled rejection (EX_SOFTWARE). */
const FATAL_EXIT_CODE = 70;

export interface FatalOptions {
  /** Ends what outlives the process (the sandboxes' temp dirs); given at most `cleanupMs`. */
  cleanup: () => Promise<unknown>;
  cleanupMs?: number;
  /** Injectable for tests. */
  exit?: (code: number) => void;
  write?: (text: string, done: () => void) => void;
}

function describe(what: string, err: unknown): string {
  const detail = err instanceof Error ? (err.stack ?? `${err.name}: ${err.message}`) : String(err);
  return `gatehouse worker: ${what}: ${detail}\ngatehouse worker: exiting (code ${FATAL_EXIT_CODE}); the app starts a new worker\n`;
}

/**
 * After an uncaught exception or an unhandled rejection the worker's state cannot be trusted: it says what happened
 * on stderr (main writes that to worker.log, redacted), ends its sandboxes within `cleanupMs`, and exits; the
 * supervisor in main starts a fresh worker. A second failure while this runs exits at once.
 */
export function exitOnFatalErrors(options: FatalOptions): void {
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const write = options.write ?? ((text: string, done: () => void) => process.stderr.write(text, () => done()));
  const cleanupMs = options.cleanupMs ?? 1_000;
  let dying = false;

  const die = (what: string, err: unknown): void => {
    if (dying) {
      write(describe(`${what} while exiting`, err), () => undefined);
      exit(FATAL_EXIT_CODE);
      return;
    }
    dying = true;
    const written = new Promise<void>((resolve) => write(describe(what, err), resolve));
    void Promise.all([written, settleWithin(options.cleanup, cleanupMs)]).finally(() => exit(FATAL_EXIT_CODE));
  };

  process.on('uncaughtException', (err) => die('uncaught exception', err));
  process.on('unhandledRejection', (reason) => die('unhandled rejection', reason));
}
