import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { RuleBehavior } from '../../../../shared/permission';
import type { EditableScope } from '../../../../shared/rules-contract';
import { errorMessage } from '../../api/errors';
import { useApi } from '../../api/context';
import { Shown } from '../../display/Shown';
import { useRuleValidation, validationText } from '../use-rule-validation';
import { useRuleSeed } from './builder-store';
import { Choice, ChoiceRadios } from './ChoiceRadios';
import { CommandPicker } from './CommandPicker';
import { McpPicker } from './McpPicker';
import { PathPicker } from './PathPicker';
import { ReplayList } from './ReplayList';
import { webRule, type RuleKind } from './rule-text';
import { KIND_LABELS, seedStart, type SeedStart } from './seed';
import './builder.css';

const KINDS: readonly RuleKind[] = ['command', 'read', 'edit', 'web', 'mcp'];

const BEHAVIORS: readonly RuleBehavior[] = ['allow', 'ask', 'deny'];
const BEHAVIOR_LABELS: Record<RuleBehavior, string> = { allow: 'Allow', ask: 'Ask every time', deny: 'Deny' };
const BEHAVIOR_HINTS: Record<RuleBehavior, string> = {
  allow: 'it runs without asking you',
  ask: 'you are asked, even where the mode or an allow rule would let it run',
  deny: 'it never runs; the agent is told it was denied',
};

/** Each scope in one line: who the rule reaches and whether it is committed (its file is added to the line). */
const SCOPES: readonly EditableScope[] = ['local', 'project', 'user'];
const SCOPE_LABELS: Record<EditableScope, string> = {
  local: 'This machine (local)',
  project: 'The project',
  user: 'All your projects (user)',
};
const SCOPE_HINTS: Record<EditableScope, string> = {
  local: 'only you, in this project; not committed',
  project: 'everyone who clones the project; committed with it',
  user: 'only you, in every project',
};

/**
 * "Make a rule" by pointing instead of typing: what (a command's words, a file or folder in the tree, a web domain,
 * an MCP server or tool), then allow, ask or deny, then where it is saved (this machine by default). The rule text is
 * computed and shown, checked by main's rule parser as the text form's is, and the recent calls it would decide
 * differently are listed before it is saved with the same writer as the text form and `gatehouse rules add`.
 */
export function RuleBuilder({
  scopeFiles,
  onChanged,
}: {
  scopeFiles: Record<EditableScope, string>;
  onChanged(): void;
}) {
  const api = useApi();
  const seed = useRuleSeed((s) => s.seed);
  const [kind, setKind] = useState<RuleKind>('command');
  const [start, setStart] = useState<{ at: SeedStart; nonce: number } | null>(null);
  const [picked, setPicked] = useState<string | null>(null);
  const [domain, setDomain] = useState('');
  const [behavior, setBehavior] = useState<RuleBehavior>('allow');
  const [scope, setScope] = useState<EditableScope>('local');
  const [status, setStatus] = useState<{ text: string; error: boolean } | null>(null);
  const [saving, setSaving] = useState(false);
  /** Bumped by each save: the replay runs again against the settings as they now are. */
  const [saved, setSaved] = useState(0);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const ids = { title: useId(), rule: useId(), domain: useId() };

  // "Make a rule" on an audit row or a tool card: start from that call, and bring the builder into view.
  useEffect(() => {
    if (!seed) return;
    const at = seedStart(seed);
    if (at) {
      setKind(at.kind);
      setStart({ at, nonce: seed.nonce });
    }
    setStatus(null);
    headingRef.current?.scrollIntoView({ block: 'start' });
    headingRef.current?.focus();
  }, [seed]);

  const onRule = useCallback((r: string | null) => setPicked(r), []);
  const rule = kind === 'web' ? webRule(domain) : picked;
  const validation = useRuleValidation(rule ?? '', behavior);
  const valid = rule !== null && validation.state === 'ok';

  const save = () => {
    if (!valid || rule === null || saving) return;
    setSaving(true);
    api.addRule({ rule, behavior, scope }).then(
      (r) => {
        setSaving(false);
        setSaved((n) => n + 1);
        setStatus({
          text: r.changed ? `Saved: ${behavior} ${rule} in ${r.file}` : `${behavior} ${rule} is already in ${r.file}`,
          error: false,
        });
        onChanged();
      },
      (err: unknown) => {
        setSaving(false);
        setSaved((n) => n + 1);
        setStatus({ text: errorMessage(err), error: true });
      },
    );
  };

  const at = start?.at ?? null;
  const nonce = start?.nonce ?? 0;
  const commandSeed = at?.kind === 'command' ? at.command : null;
  const pathSeed = (at?.kind === 'read' || at?.kind === 'edit') && at.kind === kind ? { path: at.path, nonce } : null;
  const mcpSeed = at?.kind === 'mcp' ? { server: at.server, tool: at.tool, nonce } : null;

  return (
    <section className="rules-builder" aria-labelledby={ids.title} data-testid="rule-builder">
      <h3 id={ids.title} ref={headingRef} tabIndex={-1}>
        Make a rule
      </h3>
      <p className="muted">Point at what the rule is about; the rule is written for you.</p>
      <ChoiceRadios
        legend="What is the rule about?"
        className="builder-kinds"
        value={kind}
        onChange={(k) => {
          setKind(k);
          setPicked(null);
          setStatus(null);
        }}
        testId="builder-kind"
      >
        {KINDS.map((k) => (
          <Choice key={k} value={k}>
            {KIND_LABELS[k]}
          </Choice>
        ))}
      </ChoiceRadios>
      <div className="builder-target">
        {kind === 'command' ? <CommandPicker seed={commandSeed} key={`command-${nonce}`} onRule={onRule} /> : null}
        {kind === 'read' || kind === 'edit' ? (
          <PathPicker key={kind} kind={kind} reveal={pathSeed} onRule={onRule} />
        ) : null}
        {kind === 'mcp' ? <McpPicker seed={mcpSeed} onRule={onRule} /> : null}
        {kind === 'web' ? (
          <div className="builder-web">
            <label htmlFor={ids.domain}>Domain</label>
            <input
              id={ids.domain}
              type="text"
              value={domain}
              placeholder="example.com or *.example.com"
              spellCheck={false}
              autoComplete="off"
              onChange={(e) => setDomain(e.target.value)}
            />
            <p className="muted">
              Gatehouse has no web-fetch tool: such a rule is kept for Claude Code and matches nothing here. Commands
              reach the network only through the sandbox&apos;s allowed domains.
            </p>
          </div>
        ) : null}
      </div>
      <ChoiceRadios legend="Decision" value={behavior} onChange={setBehavior} testId="builder-behavior">
        {BEHAVIORS.map((b) => (
          <Choice key={b} value={b} hint={BEHAVIOR_HINTS[b]}>
            {BEHAVIOR_LABELS[b]}
          </Choice>
        ))}
      </ChoiceRadios>
      <ChoiceRadios legend="Where to save it" value={scope} onChange={setScope} testId="builder-scope">
        {SCOPES.map((sc) => (
          <Choice key={sc} value={sc} hint={`${SCOPE_HINTS[sc]}: ${scopeFiles[sc]}`}>
            {SCOPE_LABELS[sc]}
          </Choice>
        ))}
      </ChoiceRadios>
      <div className="builder-result">
        <p id={ids.rule} className="builder-rule">
          {'Rule: '}
          {rule ? (
            <Shown text={rule} strict lines="inline" as="code" data-testid="builder-rule" />
          ) : (
            <span className="muted" data-testid="builder-rule">
              {kind === 'web' ? 'type a domain' : 'choose what it is about above'}
            </span>
          )}
        </p>
        <p
          className={
            validation.state === 'bad'
              ? 'error'
              : validation.state === 'ok' && validation.warnings.length
                ? 'rule-warning'
                : 'muted'
          }
          aria-live="polite"
          data-testid="builder-validation"
        >
          <Shown text={rule ? validationText(validation, scopeFiles[scope]) : ''} />
        </p>
        <ReplayList rule={valid ? rule : null} behavior={behavior} scope={scope} version={saved} />
        <button
          type="button"
          className="primary"
          disabled={!valid || saving}
          onClick={save}
          aria-describedby={ids.rule}
        >
          Save rule
        </button>
        {status ? (
          <p
            className={status.error ? 'error' : 'muted'}
            role={status.error ? 'alert' : 'status'}
            data-testid="builder-status"
          >
            <Shown text={status.text} />
          </p>
        ) : null}
      </div>
    </section>
  );
}
