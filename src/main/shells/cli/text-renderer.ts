import type { AutoRunStats, HookRunWire, ToolCallDecided } from '../../../shared/agent-events';
import { SANDBOX_KIND_LABELS } from '../../../shared/permission';
import { callTarget } from '../../../shared/tools';
import { describeMarks, summariseMarks, visibleText } from '../../../shared/visible-text';
import type { SessionEvent } from '../../services/agent-runs/types';

/** The longest call description on one `[tool]` line; the rest is counted, never silently dropped. */
const MAX_LINE_CHARS = 160;

/**
 * `gatehouse run --output text`: the assistant's text, and one line per tool call with its decision, e.g.
 * `[tool] run_command npm test -> deny (hard): ...` or, when you were asked,
 * `[tool] write_file a.txt -> allow (approval): allowed once by you [asked (trust): ...; you answered once]`; an
 * allowed command ends with the sandbox it runs in (`[read-only sandbox]`, `[sandbox: project writable]`, ...). Everything from the model or the project is shown with its
 * hidden characters as markers (a terminal must not act on an escape sequence the model wrote).
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
        const rule = e.rule ? ` ${shownLine(e.rule)}` : '';
        const who = e.agent ? `[${shownLine(e.agent)}] ` : '';
        const sandbox = e.sandbox ? ` [${SANDBOX_KIND_LABELS[e.sandbox]}]` : '';
        this.out(
          `${who}[tool] ${describeCall(call?.name ?? '?', call?.input)} -> ${verdict} (${e.source}${rule}): ${shownLine(e.reason)}${askedNote(e)}${sandbox}`,
        );
        for (const run of e.hooks ?? []) this.out(hookLine(run));
        return;
      }
      case 'auto_fallback':
        this.flush();
        this.out(`[auto] ${e.reason}`);
        return;
      case 'auto_usage':
        this.flush();
        this.out(autoUsageLine(e.stats));
        return;
      case 'hook_runs':
        this.flush();
        for (const run of e.hooks) this.out(hookLine(run));
        return;
      case 'skill_loaded':
        this.flush();
        this.out(
          `[skill] ${shownLine(e.name)} loaded; tools: ${e.allowedTools ? shownLine(e.allowedTools.join(', ')) : 'all'}`,
        );
        return;
      case 'subagent_started': {
        this.flush();
        const bg = e.background ? `, in the background (its asks: ${e.backgroundAsk ?? 'deny'})` : '';
        this.out(`[agent] ${shownLine(e.agentId)} started (${e.agentMode} mode${bg})`);
        return;
      }
      case 'subagent_finished':
        this.out(`[agent] ${shownLine(e.agentId)} ${e.status} after ${e.turns} turn${e.turns === 1 ? '' : 's'}`);
        return;
      case 'tool_call_finished':
        if (e.ran && e.isError) this.out(`[tool] failed: ${shownLine(e.content, 200)}`);
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
    if (text) this.out(visibleText(text));
  }
}

/** `[auto] classifier (model): 3 calls, 2 allowed, 1 blocked, 1200 + 60 tokens, 900 ms`: what auto mode cost in a run. */
function autoUsageLine(s: AutoRunStats): string {
  return `[auto] classifier: ${s.calls} call${s.calls === 1 ? '' : 's'}, ${s.allowed} allowed, ${s.blocked} blocked, ${s.inputTokens} input + ${s.outputTokens} output tokens, ${Math.round(s.latencyMs)} ms`;
}

/** ` [asked (trust): why; you answered once]` when the engine asked; nothing when it decided by itself. */
function askedNote(e: ToolCallDecided): string {
  if (!e.asked) return '';
  const answer = e.answer
    ? `you answered ${e.answer.choice}`
    : e.classifier?.decision === 'allow'
      ? 'the classifier allowed it'
      : 'nobody answered';
  return ` [asked (${e.asked.source}): ${shownLine(e.asked.reason, MAX_LINE_CHARS)}; ${answer}]`;
}

/**
 * One hook run on one line: `[hook] PostToolUse ./style-check.sh (user) -> none in 52 ms: notes use tabs`. The
 * command and what the hook said come from settings files and scripts: shown with their hidden characters.
 */
function hookLine(run: HookRunWire): string {
  const said = run.message ? `: ${shownLine(run.message, MAX_LINE_CHARS)}` : '';
  return `[hook] ${run.event} ${shownLine(run.command, MAX_LINE_CHARS)} (${run.source}) -> ${run.outcome} in ${Math.round(run.durationMs)} ms${said}`;
}

/** The thing a call is about: its path, command or pattern, else its JSON input. */
export function callSubject(input: unknown): string {
  return callTarget(input) || (JSON.stringify(input ?? {}) ?? '');
}

/** `run_command npm test`, `write_file src/a.ts`, else the tool and its JSON input, on one line (⏎ for a line break). */
export function describeCall(name: string, input: unknown): string {
  return `${name} ${shownLine(callSubject(input), MAX_LINE_CHARS)}`;
}

/**
 * Untrusted text on one terminal line: hidden characters as markers, line breaks as ⏎, runs of spaces kept; cut
 * after `max` characters with the rest counted.
 */
export function shownLine(text: string, max = Infinity): string {
  const shown = visibleText(text, { strict: true, newlines: 'sign' });
  const chars = Array.from(shown);
  return chars.length > max ? `${chars.slice(0, max).join('')}… (${chars.length - max} more characters)` : shown;
}

/** Untrusted text as numbered lines (`   1 │ echo safe`), hidden characters as markers. */
export function numberedLines(text: string, indent = '  '): string {
  const lines = visibleText(text, { strict: true }).split('\n');
  const width = String(lines.length).length;
  return lines.map((line, i) => `${indent}${String(i + 1).padStart(width)} \u2502 ${line}`).join('\n');
}

/** The warning a terminal prompt prints first when `texts` needed markers, else null. */
export function markWarning(texts: string[]): string | null {
  const summary = summariseMarks(texts.join('\n'), { strict: true });
  return summary.count === 0
    ? null
    : `! This call contains ${describeMarks(summary)}: check what they do before you answer.`;
}
