import type { RpcCommand, RpcEvent } from '../../../shared/rpc-protocol';
import { RpcCommandSchema } from '../../../shared/rpc-protocol';
import { toRpcError } from '../../../shared/errors';
import { describeZodError } from '../../../shared/validate';
import { LineSplitter } from '../../../shared/line-splitter';
import type { ApprovalAnswer } from '../../core/permission/approvals';
import type { AgentSession } from '../../services/agent-runs/agent-session';
import { NoApproverError, type Approver } from '../../services/agent-runs/types';

type Emit = (event: RpcEvent) => void;
export const MAX_LINE_CHARS = 4_000_000;

/**
 * The engine of `gatehouse rpc`: turns command lines into session calls and session activity into events.
 * Lines are split on LF only; a malformed line becomes an `error` event naming it, never a crash. A line longer than
 * MAX_LINE_CHARS is discarded whole, up to its newline, and reported once: no part of it is ever executed. Every
 * command is answered (`result`, `ack` or `error`). Once the input has ended nobody can answer approvals: every ask
 * from then on is denied "approval required", and the process ends with the run.
 */
export class RpcShell {
  private session: AgentSession | null = null;
  private readonly approvals = new Map<string, (answer: ApprovalAnswer) => void>();
  private running: { promptId: string; done: Promise<void> } | null = null;
  private lineNo = 0;
  private readonly lines = new LineSplitter((line) => this.handleLine(line, ++this.lineNo), {
    maxChars: MAX_LINE_CHARS,
    onTooLong: () => this.tooLong(++this.lineNo),
  });
  private inputEnded = false;

  constructor(private readonly emit: Emit) {}

  attach(session: AgentSession): void {
    this.session = session;
  }

  /** The approver handed to the session: an `approval_request` event, then wait for the matching `approve`. */
  readonly approve: Approver = (request, signal) => {
    if (this.inputEnded)
      return Promise.reject(new NoApproverError('the client closed its input, so nobody can answer'));
    return new Promise<ApprovalAnswer>((resolve) => {
      const promptId = this.running?.promptId ?? 'unknown';
      const done = (answer: ApprovalAnswer): void => {
        signal.removeEventListener('abort', onAbort);
        this.approvals.delete(request.requestId);
        resolve(answer);
      };
      const onAbort = (): void => {
        this.emit({
          type: 'approval_closed',
          requestId: request.requestId,
          reason: 'the run stopped before an answer (cancelled, or the worker died)',
        });
        done({ kind: 'deny' });
      };
      this.approvals.set(request.requestId, done);
      signal.addEventListener('abort', onAbort, { once: true });
      this.emit({ type: 'approval_request', promptId, ...request });
      if (signal.aborted) onAbort();
    });
  };

  /** Feeds raw stdin text; complete lines are handled as they arrive. */
  feed(chunk: string): void {
    this.lines.push(chunk);
  }

  /** stdin ended: the last unterminated line counts; nobody can answer approvals any more; waits for the run. */
  async end(): Promise<void> {
    const rest = this.lines.end();
    if (rest.trim()) this.handleLine(rest, ++this.lineNo);
    this.inputEnded = true;
    for (const answer of [...this.approvals.values()]) answer({ kind: 'deny', note: 'the client closed its input' });
    await this.running?.done;
  }

  private tooLong(line: number): void {
    this.emit({
      type: 'error',
      code: 'BAD_REQUEST',
      message: `line ${line}: longer than ${MAX_LINE_CHARS} characters: discarded whole, up to its end; nothing of it was run`,
      line,
    });
  }

  private handleLine(raw: string, line: number): void {
    if (raw.trim() === '') return;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (err) {
      this.emit({
        type: 'error',
        code: 'BAD_REQUEST',
        message: `line ${line}: not JSON: ${err instanceof Error ? err.message : String(err)}`,
        line,
      });
      return;
    }
    const parsed = RpcCommandSchema.safeParse(json);
    if (!parsed.success) {
      this.emit({
        type: 'error',
        code: 'BAD_REQUEST',
        message: `line ${line}: ${describeZodError(parsed.error, 'command')}`,
        line,
      });
      return;
    }
    this.dispatch(parsed.data, line);
  }

  private dispatch(command: RpcCommand, line: number): void {
    const session = this.session;
    if (!session) {
      this.emit({
        type: 'error',
        code: 'WORKER_UNAVAILABLE',
        message: `line ${line}: the session is not open yet`,
        line,
      });
      return;
    }
    switch (command.type) {
      case 'prompt': {
        if (this.running) {
          this.emit({
            type: 'error',
            code: 'BAD_REQUEST',
            message: `line ${line}: prompt "${this.running.promptId}" is still running`,
            line,
            promptId: command.id,
          });
          return;
        }
        const promptId = command.id;
        const done = session
          .prompt(command.text, {
            ...(command.agentMode ? { agentMode: command.agentMode } : {}),
            ...(command.plan !== undefined ? { plan: command.plan } : {}),
            ...(command.maxTurns ? { maxTurns: command.maxTurns } : {}),
            onEvent: (event) => this.emit({ type: 'agent', promptId, runId: event.runId, event: event.event }),
          })
          .then(
            (result) => this.emit({ type: 'result', promptId, ...result }),
            (err: unknown) => this.emit({ type: 'error', ...toRpcError(err), promptId }),
          )
          .finally(() => {
            this.running = null;
          });
        this.running = { promptId, done };
        return;
      }
      case 'approve': {
        const answer = this.approvals.get(command.requestId);
        if (!answer) {
          this.emit({
            type: 'error',
            code: 'NOT_FOUND',
            message: `line ${line}: no approval request "${command.requestId}" is waiting`,
            line,
          });
          return;
        }
        if (command.decision === 'deny')
          answer({ kind: 'deny', ...(command.note !== undefined ? { note: command.note } : {}) });
        else if (command.decision === 'once') answer({ kind: 'once' });
        else answer({ kind: command.decision, ...(command.rules ? { rules: command.rules } : {}) });
        this.emit({
          type: 'ack',
          command: 'approve',
          line,
          requestId: command.requestId,
          message: `answered ${command.decision}`,
        });
        return;
      }
      case 'checkpoints': {
        const { id, action, checkpoint } = command;
        const needsId = action !== 'list';
        if (needsId && !checkpoint) {
          this.emit({
            type: 'error',
            code: 'BAD_REQUEST',
            message: `line ${line}: ${action} needs a checkpoint`,
            line,
            id,
          });
          return;
        }
        const work =
          action === 'list'
            ? session.checkpoints.list().then((list) => ({ list }))
            : action === 'diff'
              ? session.checkpoints.diff(checkpoint!).then((diff) => ({ diff }))
              : session.checkpoints
                  .restore(checkpoint!, { overwriteExternal: command.overwriteExternal === true })
                  .then((restore) => ({ restore }));
        void work.then(
          (answer) => this.emit({ type: 'checkpoints', id, ...answer }),
          (err: unknown) => this.emit({ type: 'error', ...toRpcError(err), line, id }),
        );
        return;
      }
      case 'cancel': {
        const running = this.running;
        if (!running) {
          this.emit({ type: 'ack', command: 'cancel', line, message: 'nothing is running: nothing to cancel' });
          return;
        }
        void session.cancel();
        this.emit({
          type: 'ack',
          command: 'cancel',
          line,
          promptId: running.promptId,
          message: `cancelling prompt "${running.promptId}"`,
        });
        return;
      }
    }
  }
}
