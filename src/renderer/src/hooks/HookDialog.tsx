import { useEffect, useId, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import {
  HookEventSchema,
  EditableHookScopeSchema,
  type HookEvent,
  type EditableHookScope,
  type HookListEntry,
} from '../../../shared/hooks-contract';
import { errorMessage } from '../api/errors';
import { useApi } from '../api/context';
import { ModalDialog } from '../app/ModalDialog';
import { Shown, shownText } from '../display/Shown';

/** Events whose hooks run whatever the matcher says: the field is off for them. */
const NO_MATCHER: ReadonlySet<HookEvent> = new Set(['UserPromptSubmit', 'Stop', 'Notification']);

const EVENT_ABOUT: Record<HookEvent, string> = {
  PreToolUse: 'before a tool call: may deny it or make it ask',
  PostToolUse: 'after a tool call: may tell the model something',
  UserPromptSubmit: 'when you send a message: may block it or add context',
  SessionStart: 'before the first message of a session: may add context',
  Stop: 'when the agent is done: may keep it going',
  Notification: 'when the agent asks you something',
};

const SCOPE_ABOUT: Record<EditableHookScope, string> = {
  user: 'User: every project, runs as you',
  project: 'Project: shared with the project, runs in the OS sandbox',
  local: 'Local: only you, this project, runs in the OS sandbox',
};

export interface HookDialogProps {
  /** The hook being edited; absent: a new one. */
  editing?: HookListEntry & { scope: EditableHookScope; command: string };
  scopeFiles: Record<EditableHookScope, string>;
  onDone(saved: boolean): void;
}

type MatcherCheck = { state: 'checking' | 'ok' | 'bad'; error: string | null; warnings: string[] };

/**
 * Adds or edits one command hook of Gatehouse's own settings: scope (a new hook), event, matcher (checked as you
 * type: an invalid regular expression is shown here and never saved), command and timeout. Enter saves, Escape
 * cancels; focus starts on the first field and goes back where it was.
 */
export function HookDialog({ editing, scopeFiles, onDone }: HookDialogProps) {
  const api = useApi();
  const titleId = useId();
  const ids = { scope: useId(), event: useId(), matcher: useId(), hint: useId(), command: useId(), timeout: useId() };
  const first = useRef<HTMLSelectElement>(null);
  const [scope, setScope] = useState<EditableHookScope>(editing?.scope ?? 'user');
  const [event, setEvent] = useState<HookEvent>(() => {
    const parsed = HookEventSchema.safeParse(editing?.event);
    return parsed.success ? parsed.data : 'PreToolUse';
  });
  const [matcher, setMatcher] = useState(editing?.matcher ?? '');
  const [command, setCommand] = useState(editing?.command ?? '');
  const [timeout, setTimeoutText] = useState(editing ? String(editing.timeoutSeconds) : '');
  const [check, setCheck] = useState<MatcherCheck>({ state: 'ok', error: null, warnings: [] });
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const usesMatcher = !NO_MATCHER.has(event);
  const effectiveMatcher = usesMatcher ? matcher.trim() : '';

  useEffect(() => {
    let current = true;
    setCheck((c) => ({ ...c, state: 'checking' }));
    const timer = window.setTimeout(() => {
      api.validateHookMatcher({ event, matcher: effectiveMatcher }).then(
        (r) => {
          if (current) setCheck({ state: r.error ? 'bad' : 'ok', error: r.error, warnings: r.warnings });
        },
        (err: unknown) => {
          if (current) setCheck({ state: 'bad', error: errorMessage(err), warnings: [] });
        },
      );
    }, 150);
    return () => {
      current = false;
      window.clearTimeout(timer);
    };
  }, [api, event, effectiveMatcher]);

  const timeoutText = timeout.trim();
  const timeoutValue = timeoutText === '' ? undefined : Number(timeoutText);
  const timeoutBad =
    timeoutValue !== undefined && (!Number.isInteger(timeoutValue) || timeoutValue < 1 || timeoutValue > 86_400);
  // While a check is on its way the form may still be sent: the matcher is checked once more first (and by main).
  const canSave = check.state !== 'bad' && command.trim() !== '' && !timeoutBad && !saving;

  const save = async (): Promise<void> => {
    setSaving(true);
    setError(null);
    try {
      if (check.state === 'checking') {
        const r = await api.validateHookMatcher({ event, matcher: effectiveMatcher });
        setCheck({ state: r.error ? 'bad' : 'ok', error: r.error, warnings: r.warnings });
        if (r.error) return setSaving(false);
      }
      const hook = {
        event,
        matcher: effectiveMatcher,
        command: command.trim(),
        ...(timeoutValue !== undefined ? { timeoutSeconds: timeoutValue } : {}),
      };
      const r = editing
        ? await api.updateHook({
            scope,
            from: { event: editing.event, matcher: editing.matcher, command: editing.command },
            to: hook,
          })
        : await api.addHook({ scope, hook });
      if (!r.changed && !editing) {
        setSaving(false);
        setError('This hook is already there.');
        return;
      }
      onDone(true);
    } catch (err) {
      setSaving(false);
      setError(errorMessage(err));
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (canSave) void save();
  };

  return (
    <ModalDialog className="hook-dialog" titleId={titleId} initialFocus={first} onCancel={() => onDone(false)}>
      <h2 id={titleId}>{editing ? 'Edit hook' : 'Add a hook'}</h2>
      <form className="hook-form" onSubmit={submit} aria-labelledby={titleId} noValidate>
        <div className="hook-field">
          <label htmlFor={ids.scope}>Scope</label>
          {editing ? (
            <output id={ids.scope}>
              <Shown text={SCOPE_ABOUT[scope]} lines="inline" />
            </output>
          ) : (
            <select
              id={ids.scope}
              ref={first}
              value={scope}
              onChange={(e) => setScope(EditableHookScopeSchema.parse(e.target.value))}
            >
              {EditableHookScopeSchema.options.map((s) => (
                <option key={s} value={s}>
                  {shownText(SCOPE_ABOUT[s])}
                </option>
              ))}
            </select>
          )}
          <Shown className="hook-hint muted" text={`Written to ${scopeFiles[scope]}`} strict />
        </div>
        <div className="hook-field">
          <label htmlFor={ids.event}>Event</label>
          <select
            id={ids.event}
            ref={editing ? first : undefined}
            value={event}
            onChange={(e) => setEvent(HookEventSchema.parse(e.target.value))}
          >
            {HookEventSchema.options.map((ev) => (
              <option key={ev} value={ev}>
                {shownText(`${ev}: ${EVENT_ABOUT[ev]}`)}
              </option>
            ))}
          </select>
        </div>
        <div className="hook-field">
          <label htmlFor={ids.matcher}>Matcher</label>
          <input
            id={ids.matcher}
            type="text"
            value={usesMatcher ? matcher : ''}
            disabled={!usesMatcher}
            placeholder={shownText(
              usesMatcher ? '* (every tool), Bash, Edit|Write, mcp__.*' : `${event} hooks have no matcher`,
            )}
            aria-invalid={check.state === 'bad'}
            aria-describedby={ids.hint}
            spellCheck={false}
            autoComplete="off"
            onChange={(e) => setMatcher(e.target.value)}
          />
          <p id={ids.hint} className={check.error ? 'hook-hint error' : 'hook-hint muted'} data-testid="matcher-hint">
            <Shown
              text={
                check.error ??
                (check.warnings.length
                  ? check.warnings.join('; ')
                  : event === 'SessionStart'
                    ? 'startup, resume, clear or compact; empty: every start'
                    : usesMatcher
                      ? "Tool names (Claude Code's Bash, Read, Edit, Write, Glob, Grep or Gatehouse's), A|B, a regular expression, or * / empty for every tool."
                      : 'Runs every time.')
              }
            />
          </p>
        </div>
        <div className="hook-field">
          <label htmlFor={ids.command}>Command</label>
          <input
            id={ids.command}
            type="text"
            value={command}
            placeholder="./scripts/check.sh"
            required
            spellCheck={false}
            autoComplete="off"
            onChange={(e) => setCommand(e.target.value)}
          />
        </div>
        <div className="hook-field">
          <label htmlFor={ids.timeout}>Timeout (seconds)</label>
          <input
            id={ids.timeout}
            type="number"
            min={1}
            max={86_400}
            step={1}
            value={timeout}
            placeholder="60"
            aria-invalid={timeoutBad}
            onChange={(e) => setTimeoutText(e.target.value)}
          />
        </div>
        {error ? (
          <p className="error" role="alert">
            <Shown text={error} />
          </p>
        ) : null}
        <div className="dialog-actions">
          <button type="submit" className="primary" disabled={!canSave}>
            {editing ? 'Save hook' : 'Add hook'}
          </button>
          <button type="button" className="secondary" onClick={() => onDone(false)}>
            Cancel
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
