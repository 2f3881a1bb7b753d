import { useState } from 'react';
import { SANDBOX_KIND_LABELS, type SandboxKind } from '../../../shared/permission';
import { callTarget } from '../../../shared/tools';
import { Shown, shownText } from '../display/Shown';
import { HookRuns } from '../hooks/HookRuns';
import { canMakeRule, makeRuleFrom } from '../rules/builder/builder-store';
import type { SubagentInfo, ToolItem } from './chat-store';
import { CommandOutput } from './CommandOutput';
import { ToolDiff } from './ToolDiff';

/**
 * The decision in plain words, from the call's one decision event: "allowed once by you", "allowed for this session
 * by you (added Edit(notes.txt))", "denied by you", "allowed by rule Bash(npm test) from project", "denied: …".
 */
function decisionLabel(item: ToolItem): { text: string; tone: 'ok' | 'warn' | 'denied' | 'muted' } {
  const d = item.decision;
  if (!d) return item.earlier ? { text: 'earlier run', tone: 'muted' } : { text: 'deciding…', tone: 'muted' };
  if (d.answer && d.source === 'approval') {
    if (!d.allow) return { text: d.answer.choice === 'deny' ? 'denied by you' : `denied: ${d.reason}`, tone: 'denied' };
    const added = d.answer.rules?.length ? ` (added ${d.answer.rules.join(', ')})` : '';
    if (added && d.answer.choice === 'session')
      return { text: `allowed for this session by you${added}`, tone: 'warn' };
    if (added && d.answer.choice === 'always')
      return {
        text: `always allowed in this project by you (added ${d.answer.rules?.join(', ')} to local settings)`,
        tone: 'warn',
      };
    return { text: 'allowed once by you', tone: 'warn' };
  }
  if (!d.allow) return { text: `denied: ${d.reason}`, tone: 'denied' };
  // Auto mode: the classifier model answered in the person's place (its reason is the decision's).
  if (d.source === 'auto') return { text: d.reason, tone: 'warn' };
  if (d.rule) return { text: `allowed by rule ${d.rule} from ${d.source}`, tone: 'ok' };
  // `local`, `project`, `user`, `session`: the scope the rule lives in (local: .gatehouse/settings.local.yaml).
  return { text: `allowed: ${d.reason}`, tone: 'ok' };
}

/** Where an allowed command ran: plain for the two sandboxes, a warning where nothing confined it. */
function sandboxLabel(kind: SandboxKind): { text: string; tone: 'muted' | 'warn' } {
  const tone = kind === 'read-only' || kind === 'workspace' ? 'muted' : 'warn';
  return { text: SANDBOX_KIND_LABELS[kind], tone };
}

/**
 * What became of the call, beside the decision: a denied call was not run (that is not an error), a command that
 * ended with a non-zero exit code failed and says which, a tool error is an error.
 */
function callStatus(item: ToolItem): { text: string; tone: 'muted' | 'bad' | 'ok' | 'denied' } {
  const r = item.result;
  if (item.decision && !item.decision.allow) return { text: 'not run', tone: 'denied' };
  if (!r) return { text: 'running…', tone: 'muted' };
  if (r.exitCode !== null && r.exitCode !== 0) return { text: `failed · exit code ${r.exitCode}`, tone: 'denied' };
  if (r.isError) return { text: 'error', tone: 'denied' };
  if (!r.ran) return { text: 'not run', tone: 'muted' };
  return { text: r.exitCode === 0 ? 'done · exit code 0' : 'done', tone: 'ok' };
}

/** A `task` card's sub-agent: which, its mode and tools, and (in the background) what its asks become. */
function SubagentLine({ info }: { info: SubagentInfo }) {
  const where = info.background
    ? `in the background: its asks are ${info.backgroundAsk === 'continue' ? 'run where only the mode asks (subagents.backgroundAsk: continue)' : 'denied (subagents.backgroundAsk: deny)'}`
    : 'its asks come to you';
  const tools = info.tools ? `tools: ${info.tools.length ? info.tools.join(', ') : 'none'}` : '';
  const status = info.status ? ` · ${info.status}` : ' · running…';
  return (
    <p className="tool-subagent muted" data-testid="tool-subagent">
      <Shown
        text={`Sub-agent ${info.agentId} (${info.agentMode} mode), ${where}${tools ? `; ${tools}` : ''}${status}`}
        lines="inline"
      />
    </p>
  );
}

/** Cards whose output is open, by call id: a card scrolled out of a virtualised list and back stays open. */
const openOutputs = new Set<string>();

/**
 * What the Output disclosure shows: a command that ran (or runs) gets CommandOutput (the model's text, or the
 * terminal when nothing in the stream hides text); anything else (other tools, a command that never ran) is text.
 */
function outputOf(item: ToolItem): { text: string; command: boolean } {
  const isCommand = item.name === 'run_command';
  if (isCommand && (item.output !== '' || item.result?.ran))
    return { text: item.output || (item.result?.content ?? ''), command: true };
  return { text: item.result ? item.result.content : item.output, command: false };
}

/** One tool call: name, target, the decision badge, and its output folded away. */
export function ToolCard({ item }: { item: ToolItem }) {
  const badge = decisionLabel(item);
  const status = callStatus(item);
  // Asked: why the engine asked, and the outcome in full where the badge does not say it all (a deny's note,
  // "approval required: …").
  const asked = item.decision?.asked ?? null;
  const outcome = asked && item.decision && !badge.text.startsWith(item.decision.reason) ? item.decision.reason : null;
  const output = outputOf(item);
  const sandbox = item.decision?.allow && item.decision.sandbox ? sandboxLabel(item.decision.sandbox) : null;
  const [open, setOpen] = useState(() => openOutputs.has(item.callId));
  const toggle = (isOpen: boolean): void => {
    if (isOpen) openOutputs.add(item.callId);
    else openOutputs.delete(item.callId);
    setOpen(isOpen);
  };
  return (
    <article
      className={`tool-card${status.tone === 'denied' ? ' tool-card-denied' : ''}${item.agent ? ' tool-card-sub' : ''}`}
      aria-label={`Tool call ${item.name}${item.agent ? ` by sub-agent ${item.agent.name}` : ''}`}
      data-testid="tool-card"
    >
      {item.agent ? (
        <Shown
          className="tool-agent muted"
          text={`↳ sub-agent ${item.agent.id}`}
          strict
          lines="inline"
          data-testid="tool-agent"
        />
      ) : null}
      <header className="tool-card-head">
        <Shown className="tool-name" text={item.name} strict lines="inline" as="code" />{' '}
        <Shown
          className="tool-target"
          text={callTarget(item.input)}
          strict
          lines="inline"
          as="code"
          data-testid="tool-target"
        />
        <span className={`badge badge-${badge.tone}`} data-testid="decision-badge">
          <Shown text={badge.text} lines="inline" />
        </span>
        {sandbox ? (
          <span className={`badge badge-${sandbox.tone}`} data-testid="sandbox-badge">
            <Shown text={sandbox.text} lines="inline" />
          </span>
        ) : null}
        <span className={`tool-status tool-status-${status.tone}`} data-testid="tool-status">
          <Shown text={status.text} lines="inline" />
        </span>
        {asked ? (
          <span className="tool-asked muted" data-testid="decision-asked">
            <Shown text={`asked: ${asked.reason}`} lines="inline" />
          </span>
        ) : null}
        {item.decision?.classifier?.decision === 'block' ? (
          <span className="tool-asked muted" data-testid="decision-classifier">
            <Shown text={`auto-mode classifier blocked it: ${item.decision.classifier.reason}`} lines="inline" />
          </span>
        ) : null}
        {outcome ? (
          <span className="tool-outcome muted">
            {'→ '}
            <Shown text={outcome} lines="inline" />
          </span>
        ) : null}
        {item.decision && canMakeRule(item.name) ? (
          <button
            type="button"
            className="link tool-make-rule"
            aria-label={shownText(`Make a rule from ${item.name} ${callTarget(item.input)}`, { strict: true })}
            onClick={() => makeRuleFrom(item.name, item.input)}
          >
            Make a rule
          </button>
        ) : null}
      </header>
      {item.subagent ? <SubagentLine info={item.subagent} /> : null}
      <HookRuns runs={item.hooks ? [...(item.decision?.hooks ?? []), ...item.hooks] : item.decision?.hooks} />
      {item.decision?.preview ? <ToolDiff callId={item.callId} preview={item.decision.preview} /> : null}
      {output.text ? (
        <details className="tool-output" open={open} onToggle={(e) => toggle(e.currentTarget.open)}>
          <summary>Output</summary>
          {!open ? null : output.command ? (
            <CommandOutput item={item} />
          ) : (
            <pre>
              <Shown text={output.text} />
            </pre>
          )}
        </details>
      ) : null}
    </article>
  );
}
