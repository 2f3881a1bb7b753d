import { useId, useState } from 'react';
import type { KeyboardEvent } from 'react';
import type { AgentMode } from '../../../shared/permission';
import { AgentModeSchema } from '../../../shared/permission';
import { PermissionModeSelect } from '../modes/PermissionModeSelect';

export interface ComposerProps {
  running: boolean;
  disabled: boolean;
  agentMode: AgentMode;
  onAgentMode(mode: AgentMode): void;
  /** Resolves true when the message was accepted (the box is then emptied). */
  onSend(text: string): Promise<boolean>;
}

const MODE_LABELS: Record<AgentMode, string> = { chat: 'Chat', plan: 'Plan', do: 'Do' };

/** The message box: Enter sends, Shift+Enter starts a new line; the agent mode beside it. */
export function Composer({ running, disabled, agentMode, onAgentMode, onSend }: ComposerProps) {
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const modeId = useId();
  const canSend = !running && !disabled && !sending && text.trim() !== '';

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
        aria-label="Message"
        placeholder={disabled ? 'Open a project to chat' : 'Ask the agent… (Enter sends, Shift+Enter for a new line)'}
        rows={3}
        value={text}
        disabled={disabled}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="composer-actions">
        <label htmlFor={modeId}>Agent mode</label>
        <select id={modeId} value={agentMode} onChange={(e) => onAgentMode(AgentModeSchema.parse(e.target.value))}>
          {AgentModeSchema.options.map((mode) => (
            <option key={mode} value={mode}>
              {MODE_LABELS[mode]}
            </option>
          ))}
        </select>
        <PermissionModeSelect disabled={disabled} />
        <button type="submit" className="primary" disabled={!canSend}>
          Send
        </button>
      </div>
    </form>
  );
}
