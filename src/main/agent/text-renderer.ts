import type { SessionEvent } from './types';

/**
 * `gatehouse run --output text`: the assistant's text, and one line per tool call with its decision, e.g.
 * `[tool] run_command npm test -> deny (hard): ...`.
 */
export class TextRenderer {
  private text = '';
  private readonly calls = new Map<string, { name: string; input: unknown }>();

  constructor(private readonly out: (line: string) => void) {}

  handle(event: SessionEvent): void {
    if (event.type !== 'agent') return;
    const e = event.event;
    switch (e.type) {
      case 'text_delta':
        this.text += e.text;
        return;
      case 'tool_call_started':
        this.flush();
        this.calls.set(e.id, { name: e.name, input: e.input });
        return;
      case 'tool_call_decided': {
        const call = this.calls.get(e.id);
        const verdict = e.allow ? 'allow' : 'deny';
        const rule = e.rule ? ` ${e.rule}` : '';
        this.out(`[tool] ${describeCall(call?.name ?? '?', call?.input)} -> ${verdict} (${e.source}${rule}): ${oneLine(e.reason)}`);
        return;
      }
      case 'tool_call_finished':
        if (e.ran && e.isError) this.out(`[tool] failed: ${oneLine(e.content).slice(0, 200)}`);
        return;
      case 'turn_usage':
      case 'done':
      case 'error':
      case 'cancelled':
        this.flush();
        return;
      default:
        return;
    }
  }

  flush(): void {
    const text = this.text.trim();
    this.text = '';
    if (text) this.out(text);
  }
}

/** `run_command npm test`, `write_file src/a.ts`, else the tool and its JSON input (cut). */
export function describeCall(name: string, input: unknown): string {
  const fields = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  const main = [fields.command, fields.path, fields.pattern, fields.glob].find((v) => typeof v === 'string');
  const detail = typeof main === 'string' ? main : JSON.stringify(input ?? {});
  return `${name} ${oneLine(detail).slice(0, 160)}`;
}

function oneLine(s: string): string {
  return s.replace(/\s*\n\s*/g, ' ').trim();
}
