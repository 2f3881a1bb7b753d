import { useEffect, useId, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import type { AgentMode } from '../../../shared/permission';
import { AgentModeSchema } from '../../../shared/permission';
import { PermissionModeSelect } from '../modes/PermissionModeSelect';
import { showView } from '../app/view-store';
import { Shown, shownText } from '../display/Shown';
import { useSettings } from '../settings/settings-store';
import { CANCEL_RUN_KEYS, FOCUS_MESSAGE_KEYS, useChatShortcuts } from './chat-shortcuts';
import { AGENT_MODE_HINTS, AGENT_MODE_LABELS } from './agent-modes';
import { useChat } from './chat-store';

export interface ComposerProps {
  running: boolean;
  disabled: boolean;
  agentMode: AgentMode;
  onAgentMode(mode: AgentMode): void;
  /** Resolves true when the message was accepted (the box is then emptied). */
  onSend(text: string): Promise<boolean>;
  /** Ctrl/Cmd+. while a run is going (Escape in the box never cancels). */
  onCancel?(): void;
}

/** The message box: Enter sends, Shift+Enter starts a new line; the agent mode beside it. */
export function Composer({ running, disabled, agentMode, onAgentMode, onSend, onCancel }: ComposerProps) {
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const modeId = useId();
  const modeHintId = useId();
  const boxRef = useRef<HTMLTextAreaElement>(null);
  useChatShortcuts(boxRef, running ? onCancel : undefined);
  const canSend = !running && !disabled && !sending && text.trim() !== '';
  const model = useSettings((s) => s.view?.model.effective ?? null);
  const draft = useChat((s) => s.composerDraft);

  // A rewound message comes back to the box, unless the person is writing another one there.
  useEffect(() => {
    if (!draft) return;
    setText((current) => (current.trim() === '' ? draft.text : current));
    boxRef.current?.focus();
  }, [draft]);

  const send = async () => {
    if (!canSend) return;
    setSending(true);
    const accepted = await onSend(text);
    setSending(false);
    if (accepted) setText('');
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void send();
    }
  };

  return (
    <form
      className="composer"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <textarea
        ref={boxRef}
        aria-label="Message"
        aria-keyshortcuts={running && onCancel ? `${FOCUS_MESSAGE_KEYS} ${CANCEL_RUN_KEYS}` : FOCUS_MESSAGE_KEYS}
        placeholder={disabled ? 'Open a project to chat' : 'Ask the agent… (Enter sends, Shift+Enter for a new line)'}
        rows={2}
        value={text}
        disabled={disabled}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="composer-actions">
        <label htmlFor={modeId}>Agent mode</label>
        <select
          id={modeId}
          value={agentMode}
          aria-describedby={modeHintId}
          onChange={(e) => onAgentMode(AgentModeSchema.parse(e.target.value))}
        >
          {AgentModeSchema.options.map((mode) => (
            <option key={mode} value={mode} title={shownText(`${AGENT_MODE_LABELS[mode]}: ${AGENT_MODE_HINTS[mode]}`)}>
              {AGENT_MODE_LABELS[mode]}
            </option>
          ))}
        </select>
        <PermissionModeSelect disabled={disabled} />
        {model ? (
          <button
            type="button"
            className="link composer-model"
            aria-label={`Model: ${model} (change in Settings)`}
            onClick={() => showView('settings')}
          >
            <Shown text={model} lines="inline" />
          </button>
        ) : null}
        <button type="submit" className="primary composer-send" disabled={!canSend}>
          Send
        </button>
      </div>
      <p id={modeHintId} className="composer-mode-hint muted" data-testid="agent-mode-hint">
        {AGENT_MODE_LABELS[agentMode]} mode: {AGENT_MODE_HINTS[agentMode]}.
      </p>
    </form>
  );
}
