import { useState } from 'react';
import type { SessionSummary } from '../../../shared/chat-contract';
import { errorMessage, useApi } from '../api';
import { Shown, shownText } from '../display';
import { showConversation, useChat } from './chat-store';

/** The open project's sessions: start a new one, or resume an earlier one (not while the agent works). */
export function SessionsMenu() {
  const api = useApi();
  const running = useChat((s) => s.running);
  const [open, setOpen] = useState(false);
  const [sessions, setSessions] = useState<SessionSummary[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const run = async (work: () => Promise<void>) => {
    try {
      await work();
      setError(null);
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  const toggle = () =>
    void run(async () => {
      if (!open) setSessions((await api.listSessions({})).sessions);
      setOpen(!open);
    });
  const resume = (id: string) =>
    void run(async () => {
      const resumed = await api.resumeSession({ id });
      showConversation(resumed.messages, resumed.decisions);
      setOpen(false);
    });
  const startNew = () =>
    void run(async () => {
      await api.newSession({});
      showConversation([]);
      setOpen(false);
    });

  return (
    <div className="sessions-menu">
      <button type="button" className="secondary" onClick={startNew} disabled={running}>
        New session
      </button>
      <button type="button" className="secondary" aria-expanded={open} onClick={toggle}>
        Sessions
      </button>
      {error ? (
        <p className="error" role="alert">
          <Shown text={error} />
        </p>
      ) : null}
      {open && sessions ? (
        <ul className="sessions-list" aria-label="Sessions of this project">
          {sessions.length === 0 ? <li className="muted">No sessions yet.</li> : null}
          {sessions.map((s) => (
            <li key={s.id}>
              {s.lastPrompt === null ? (
                <span className="session-prompt">(no messages)</span>
              ) : (
                <Shown className="session-prompt" text={s.lastPrompt} lines="inline" />
              )}{' '}
              <Shown
                className="muted"
                text={`${s.prompts} message${s.prompts === 1 ? '' : 's'} · ${new Date(s.updatedAt).toLocaleString()}`}
              />{' '}
              <button
                type="button"
                className="link"
                disabled={running}
                onClick={() => resume(s.id)}
                aria-label={shownText(`Resume session: ${s.lastPrompt ?? s.id}`)}
              >
                Resume
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
