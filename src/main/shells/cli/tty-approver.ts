import readline from 'node:readline';
import { unpreviewableSummary } from '../../../shared/agent-events';
import { SANDBOX_KIND_LABELS } from '../../../shared/permission';
import { summariseMarks, visibleText } from '../../../shared/visible-text';
import type { ApprovalAnswer } from '../../core/permission/approvals';
import { callSubject, markWarning, numberedLines, shownLine } from './text-renderer';
import type { ApprovalRequest, Approver } from '../../services/agent-runs/types';

const MAX_DIFF_LINES = 60;
const UNSANDBOXED_WARNING = 'Runs outside the sandbox: it can write anywhere, read your secrets and use the network.';

/**
 * A y/N prompt on a terminal; the default (Enter, anything else, Ctrl-D) is No. Asks one at a time: read-only
 * calls of one turn run in parallel and may ask together. Everything shown comes from the model or the project,
 * so it is printed with hidden characters as markers and line breaks as numbered lines; a cut diff can be shown
 * whole (`v`) before answering.
 */
export function ttyApprover(input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Approver {
  let queue: Promise<unknown> = Promise.resolve();
  return (request, signal) => {
    const asked = queue.then(async (): Promise<ApprovalAnswer> => {
      if (signal.aborted) return { kind: 'deny' };
      output.write(describeRequest(request));
      const diff = request.preview?.kind === 'diff' ? diffLines(request.preview.unifiedDiff) : [];
      output.write(diff.slice(0, MAX_DIFF_LINES).join('\n') + (diff.length ? '\n' : ''));
      const hidden = Math.max(0, diff.length - MAX_DIFF_LINES);
      if (hidden) output.write(`  ... ${hidden} more diff lines: type v to see them\n`);
      if (request.onceOnly) {
        if (request.preview?.kind !== 'unpreviewable') output.write(`  ${UNSANDBOXED_WARNING}\n`);
      } else if (request.suggestedRules.length) {
        output.write(`  "session"/"always" would add: ${request.suggestedRules.map((r) => shownLine(r)).join(', ')}\n`);
      }
      const prompt = request.onceOnly ? 'Allow once? [y]es once, [N]o' : 'Allow? [y]es once, [s]ession, [a]lways, [N]o';
      for (;;) {
        const typed = await question(input, output, `${prompt}${hidden ? ', [v]iew the whole diff' : ''}: `, signal);
        if (hidden && /^\s*v(iew)?\s*$/i.test(typed)) {
          output.write(diff.slice(MAX_DIFF_LINES).join('\n') + '\n');
          continue;
        }
        const answer = parseAnswer(typed);
        return request.onceOnly && answer.kind !== 'once' ? { kind: 'deny' } : answer;
      }
    });
    queue = asked.catch(() => undefined);
    return asked;
  };
}

/** The request's head: tool, place in the turn, warnings, the command or path (numbered when it has lines), why. */
function describeRequest(request: ApprovalRequest): string {
  const subject = callSubject(request.input);
  const position =
    request.position && request.position.count > 1
      ? ` (call ${request.position.index} of ${request.position.count} in this turn)`
      : '';
  const lines = [''];
  const multiLine = subject.includes('\n');
  lines.push(`[approval] ${request.tool}${multiLine ? '' : ` ${shownLine(subject)}`}${position}`);
  const warning = markWarning([
    subject,
    request.reason,
    ...request.suggestedRules,
    request.preview?.kind === 'diff' ? request.preview.unifiedDiff : '',
  ]);
  if (warning) lines.push(warning);
  if (multiLine) lines.push(`  ${subject.split('\n').length} lines:`, numberedLines(subject, '    '));
  lines.push(`  ${request.source}: ${shownLine(request.reason)}`);
  if (request.sandbox) lines.push(`  if you allow it, it runs in: ${SANDBOX_KIND_LABELS[request.sandbox]}`);
  if (request.preview?.kind === 'unpreviewable')
    lines.push(`! ${shownLine(request.preview.path)}: ${unpreviewableSummary(request.preview)}`);
  return lines.join('\n') + '\n';
}

/** A diff's lines with markers; a line that needed them is flagged (Trojan Source). */
function diffLines(diff: string): string[] {
  return diff
    .replace(/\n$/, '')
    .split('\n')
    .map((line) =>
      summariseMarks(line).count > 0 ? `${visibleText(line)}   <- hidden characters` : visibleText(line),
    );
}

function parseAnswer(answer: string): ApprovalAnswer {
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

function question(
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  prompt: string,
  signal: AbortSignal,
): Promise<string> {
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
