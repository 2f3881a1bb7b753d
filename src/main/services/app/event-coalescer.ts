import type { ApiEvent } from '../../../shared/api';

type AgentApiEvent = Extract<ApiEvent, { type: 'agent' }>;

/** How long streamed text may wait to be joined with what follows it (about one frame). */
const COALESCE_DELAY_MS = 16;
/** A joined chunk never grows past this many characters (one socket frame / IPC message stays small). */
export const COALESCE_MAX_CHARS = 32 * 1024;

function streamedText(event: AgentApiEvent): string | null {
  const e = event.event;
  return e.type === 'text_delta' ? e.text : e.type === 'tool_call_output' ? e.chunk : null;
}

/** `next` appended to `held` when both are streamed text of the same run, turn or call; else null. */
function joined(held: AgentApiEvent, next: ApiEvent): AgentApiEvent | null {
  if (next.type !== 'agent' || next.runId !== held.runId) return null;
  const a = held.event;
  const b = next.event;
  if (a.type === 'text_delta' && b.type === 'text_delta' && a.turn === b.turn) {
    return { ...held, event: { ...a, text: a.text + b.text } };
  }
  if (a.type === 'tool_call_output' && b.type === 'tool_call_output' && a.id === b.id) {
    return { ...held, event: { ...a, chunk: a.chunk + b.chunk } };
  }
  return null;
}

/**
 * Joins the agent's streamed text (`text_delta` of one turn, `tool_call_output` of one call) for up to one frame
 * before it goes to the pages: at 2,000 tokens/s the page would otherwise parse and validate 2,000 frames a
 * second. Any other event first sends what is held, so the order the pages see is the order things happened.
 */
export class EventCoalescer {
  private held: AgentApiEvent | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly send: (event: ApiEvent) => void,
    private readonly delayMs = COALESCE_DELAY_MS,
  ) {}

  push(event: ApiEvent): void {
    if (this.held) {
      const next = joined(this.held, event);
      if (next && (streamedText(next)?.length ?? 0) <= COALESCE_MAX_CHARS) {
        this.held = next;
        return;
      }
      this.flush();
    }
    if (event.type === 'agent' && streamedText(event) !== null) {
      this.held = event;
      this.timer = setTimeout(() => this.flush(), this.delayMs);
      return;
    }
    this.send(event);
  }

  /** Sends whatever is held now. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const held = this.held;
    this.held = null;
    if (held) this.send(held);
  }
}
