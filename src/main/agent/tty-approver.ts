import readline from 'node:readline';
import type { ApprovalAnswer } from '../permission/approvals';
import { describeCall } from './text-renderer';
import type { Approver } from './types';

const MAX_DIFF_LINES = 60;
export const UNSANDBOXED_WARNING = 'Runs outside the sandbox: it can write anywhere, read your secrets and use the network.';

/**
 * A y/N prompt on a terminal; the default (Enter, anything else, Ctrl-D) is No. Asks one at a time: read-only
 * calls of one turn run in parallel and may ask together.
 */
export function ttyApprover(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Approver {
  let queue: Promise<unknown> = Promise.resolve();
  return (request, signal) => {
    const asked = queue.then(async (): Promise<ApprovalAnswer> => {
      if (signal.aborted) return { kind: 'deny' };
      output.write(`\n[approval] ${describeCall(request.tool, request.input)}\n  ${request.source}: ${request.reason}\n`);
      if (request.preview) {
        const lines = request.preview.unifiedDiff.split('\n');
        output.write(lines.slice(0, MAX_DIFF_LINES).join('\n') + '\n');
        if (lines.length > MAX_DIFF_LINES) output.write(`  ... ${lines.length - MAX_DIFF_LINES} more diff lines\n`);
      }
      if (request.onceOnly) {
        output.write(`  ${UNSANDBOXED_WARNING}\n`);
        const answer = parseAnswer(await question(input, output, 'Allow once? [y]es once, [N]o: ', signal));
        return answer.kind === 'once' ? answer : { kind: 'deny' };
      }
      if (request.suggestedRules.length) output.write(`  "session"/"always" would add: ${request.suggestedRules.join(', ')}\n`);
      const answer = await question(input, output, 'Allow? [y]es once, [s]ession, [a]lways, [N]o: ', signal);
      return parseAnswer(answer);
    });
    queue = asked.catch(() => undefined);
    return asked;
  };
}

export function parseAnswer(answer: string): ApprovalAnswer {
  switch (answer.trim().toLowerCase()) {
    case 'y':
    case 'yes':
      return { kind: 'once' };
    case 's':
    case 'session':
      return { kind: 'session' };
    case 'a':
    case 'always':
      return { kind: 'always' };
    default:
      return { kind: 'deny' };
  }
}

function question(input: NodeJS.ReadableStream, output: NodeJS.WritableStream, prompt: string, signal: AbortSignal): Promise<string> {
  return new Promise((resolve) => {
    const rl = readline.createInterface({ input, output, terminal: true });
    let done = false;
    const finish = (value: string): void => {
      if (done) return;
      done = true;
      signal.removeEventListener('abort', onAbort);
      rl.close();
      resolve(value);
    };
    const onAbort = (): void => finish('');
    signal.addEventListener('abort', onAbort, { once: true });
    rl.on('close', () => finish(''));
    rl.question(prompt, (value) => finish(value));
  });
}
